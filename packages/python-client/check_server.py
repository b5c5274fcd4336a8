"""Runs paydesk.py against a Paydesk server in test mode: create, pay, refund, pay out, verify callbacks.

    PAYDESK_BASE_URL=http://localhost:8080 PAYDESK_MERCHANT_NO=M100001 PAYDESK_ACCESS_KEY=test_... \
    PAYDESK_SECRET_KEY=... PAYDESK_WEBHOOK_SECRET=whsec_... python3 check_server.py

It receives the callbacks itself (a notify_url on 127.0.0.1, so the server must be on this machine) and
prints one JSON line of what it saw. client-libraries.test.ts runs it in npm test.
"""
import json
import os
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

from paydesk import Paydesk, PaydeskError, WebhookVerificationError, verify_webhook

env = os.environ
WEBHOOK_SECRET = env['PAYDESK_WEBHOOK_SECRET']
received = []


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get('Content-Length', 0)))
        received.append((dict(self.headers), body))
        try:
            verify_webhook(body, self.headers, WEBHOOK_SECRET)
            self.send_response(204)
        except WebhookVerificationError:
            self.send_response(401)
        self.end_headers()

    def log_message(self, *args):
        pass


def wait_for(event_type, key, value):
    deadline = time.time() + 30
    while time.time() < deadline:
        for headers, body in list(received):
            event = json.loads(body)
            if event['type'] == event_type and event['data'].get(key) == value:
                return headers, body
        time.sleep(0.1)
    raise SystemExit('no %s callback for %s' % (event_type, value))


def error_of(call):
    try:
        call()
    except PaydeskError as error:
        return {'status': error.status, 'code': error.code, 'trade_no': error.trade_no}
    return None


server = HTTPServer(('127.0.0.1', 0), Receiver)
threading.Thread(target=server.serve_forever, daemon=True).start()
notify_url = 'http://127.0.0.1:%d/paydesk/callbacks' % server.server_address[1]

paydesk = Paydesk(base_url=env['PAYDESK_BASE_URL'], merchant_no=env['PAYDESK_MERCHANT_NO'],
                  access_key=env['PAYDESK_ACCESS_KEY'], secret_key=env['PAYDESK_SECRET_KEY'])
assert paydesk.test_mode

# A collection, paid on the sandbox's hosted page as a payer would.
order = paydesk.collections.create({'out_trade_no': 'PY-1001', 'amount': '100.00', 'notify_url': notify_url})
no_proxy = urllib.request.build_opener(urllib.request.ProxyHandler({}))
no_proxy.open(urllib.request.Request(
    paydesk.base_url + order['pay_url'] if order['pay_url'].startswith('/') else order['pay_url'],
    data=b'result=paid', headers={'Content-Type': 'application/x-www-form-urlencoded'}, method='POST'))
headers, body = wait_for('collection.paid', 'trade_no', order['trade_no'])
event = verify_webhook(body, headers, WEBHOOK_SECRET)
try:
    verify_webhook(body.replace(b'"100.00"', b'"1000.00"'), headers, WEBHOOK_SECRET)
    tampered_refused = False
except WebhookVerificationError:
    tampered_refused = True
collection = paydesk.collections.get(order['trade_no'])
assert paydesk.collections.get_by_out_trade_no('PY-1001')['trade_no'] == order['trade_no']

# A partial refund; the sandbox finishes it and calls back.
refund = paydesk.refunds.create(order['trade_no'], {'out_refund_no': 'PY-R-1', 'amount': '30.00'},
                                idempotency_key='py-refund-1')
refund_headers, refund_body = wait_for('refund.succeeded', 'refund_no', refund['refund_no'])
refund_event = verify_webhook(refund_body, refund_headers, WEBHOOK_SECRET)
assert paydesk.refunds.get_by_out_refund_no('PY-R-1')['refund_no'] == refund['refund_no']

# A payout, sent twice with one Idempotency-Key: the second is the first's answer, replayed.
payout_body = {'out_trade_no': 'PY-P-1', 'amount': '10.00', 'account_type': 'individual', 'bank_code': 'ICBC',
               'bank_name': '中国工商银行', 'branch_name': '上海分行', 'payee_name': '张三',
               'account_no': '6222020200112233445'}
payout = paydesk.payouts.create(payout_body, idempotency_key='py-payout-1')
replay = paydesk.payouts.create(payout_body, idempotency_key='py-payout-1')
payout_replayed = paydesk.last_response['replayed']
balance = paydesk.balance.get()

live = Paydesk(base_url=paydesk.base_url, merchant_no=paydesk.merchant_no,
               access_key=env.get('PAYDESK_LIVE_ACCESS_KEY', 'live_missing'),
               secret_key=env.get('PAYDESK_LIVE_SECRET_KEY', 'missing'))
wrong = Paydesk(base_url=paydesk.base_url, merchant_no=paydesk.merchant_no, access_key=paydesk.access_key,
                secret_key='not-the-secret-key')

print(json.dumps({
    'collection': {key: collection[key] for key in ('trade_no', 'status', 'livemode')},
    'callback': {'type': event['type'], 'id': event['id']},
    'tampered_refused': tampered_refused,
    'refund': {key: refund[key] for key in ('refund_no', 'status', 'amount')},
    'refund_callback': {'type': refund_event['type']},
    'payout_replayed': payout_replayed,
    'payout_same_trade_no': replay['trade_no'] == payout['trade_no'],
    'balance': balance,
    'duplicate': error_of(lambda: paydesk.collections.create({'out_trade_no': 'PY-1001', 'amount': '1.00'})),
    'live': error_of(lambda: live.collections.create({'out_trade_no': 'PY-LIVE-1', 'amount': '1.00'})),
    'wrong_secret': error_of(lambda: wrong.balance.get()),
}, ensure_ascii=False))
server.shutdown()
