# paydesk_callbacks.py: receive Paydesk callbacks and verify them (Standard Webhooks).
# Python 3.8 or later, standard library only: python3 paydesk_callbacks.py, then set your notify URL to
# https://<your host>/paydesk/callbacks
import base64
import hashlib
import hmac
import json
import os
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

WEBHOOK_SECRET = 'whsec_YOUR_WEBHOOK_SECRET'  # shown beside your access key
PORT = int(os.environ.get('PORT', '3000'))
TOLERANCE_SECONDS = 5 * 60

# The key is the base64-decoded part after "whsec_".
KEY = base64.b64decode(WEBHOOK_SECRET[len('whsec_'):] if WEBHOOK_SECRET.startswith('whsec_') else WEBHOOK_SECRET)


def verify_callback(raw_body, headers):
    """True when the headers sign exactly these raw body bytes with our secret, recently."""
    event_id = headers.get('webhook-id')
    timestamp = headers.get('webhook-timestamp')
    signatures = headers.get('webhook-signature')
    if not event_id or not timestamp or not signatures:
        return False
    # An old (replayed) or future timestamp is refused.
    if not (timestamp.isascii() and timestamp.isdigit()) or abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        return False
    signed = event_id.encode('utf-8') + b'.' + timestamp.encode('ascii') + b'.' + raw_body
    expected = base64.b64encode(hmac.new(KEY, signed, hashlib.sha256).digest())
    # Space-separated "v1,<base64>" entries: any one matching is enough.
    for entry in signatures.split(' '):
        version, _, signature = entry.partition(',')
        if version == 'v1' and hmac.compare_digest(signature.encode('utf-8'), expected):
            return True
    return False


# Every retry carries the same webhook-id. Keep the handled ids in your database (a unique index) so a
# retry after a lost answer is acknowledged without being handled twice.
handled_event_ids = set()


class CallbackHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        if self.path != '/paydesk/callbacks':
            self.send_response(404)
            self.end_headers()
            return
        raw_body = self.rfile.read(int(self.headers.get('Content-Length', 0)))  # verify the bytes as received
        if not verify_callback(raw_body, self.headers):
            self.send_response(401)
            self.end_headers()
            return
        event_id = self.headers['webhook-id']
        if event_id in handled_event_ids:
            print('duplicate', event_id, flush=True)
        else:
            event = json.loads(raw_body)
            # Answer within 15 seconds: hand slow work to a queue instead of doing it here.
            print('handled', event['type'], event['data']['out_trade_no'], event['data']['status'], flush=True)
            handled_event_ids.add(event_id)
        self.send_response(204)
        self.end_headers()


if __name__ == '__main__':
    server = ThreadingHTTPServer(('', PORT), CallbackHandler)
    print('Listening on port', PORT, flush=True)
    server.serve_forever()
