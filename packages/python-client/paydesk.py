"""Paydesk gateway client for Python 3.8+: one file, standard library only.

Copy this file next to your code (it is also in the gateway reference, /gateway/docs):

    from paydesk import Paydesk, PaydeskError, verify_webhook

    paydesk = Paydesk(base_url='http://localhost:8080', merchant_no='M100001',
                      access_key='test_...', secret_key='...')
    order = paydesk.collections.create({'out_trade_no': 'ORDER-1001', 'amount': '100.00'})
    print(order['pay_url'])

Every request is signed (X-Merchant-No, X-Access-Key, X-Timestamp, X-Nonce, X-Signature); network errors,
timeouts, 429 and 5xx are retried with backoff, and a payout or refund keeps one Idempotency-Key across its
retries. verify_webhook() checks a callback as the Standard Webhooks specification says.
"""
import base64
import hashlib
import hmac
import json
import random
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

__all__ = ['Paydesk', 'PaydeskError', 'WebhookVerificationError', 'sign_request', 'sign_webhook',
           'verify_webhook']

WEBHOOK_TOLERANCE_SECONDS = 300


class PaydeskError(Exception):
    """An error answer (status, code, message), or no answer at all (status 0, code 'network_error').

    A 409 out_trade_no_taken carries the existing order's trade_no (out_refund_no_taken: refund_no).
    """

    def __init__(self, status, code, message, body=None, headers=None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.body = body if isinstance(body, dict) else {}
        self.headers = headers or {}
        self.trade_no = self.body.get('trade_no')
        self.refund_no = self.body.get('refund_no')
        self.errors = self.body.get('errors')
        self.request_id = self.body.get('request_id')

    def __str__(self):
        return '%s %s: %s' % (self.status, self.code, self.message)


class WebhookVerificationError(Exception):
    """A callback whose headers, timestamp or signature do not check out: answer it with 400 or 401."""


def sign_request(secret_key, method, path_with_query, timestamp, nonce, body=b''):
    """X-Signature: hex HMAC-SHA256 (keyed with the secret key) of the five lines joined by '\\n'."""
    if isinstance(body, str):
        body = body.encode('utf-8')
    string_to_sign = '\n'.join([method.upper(), path_with_query, str(timestamp), nonce,
                                hashlib.sha256(body or b'').hexdigest()])
    return hmac.new(secret_key.encode('utf-8'), string_to_sign.encode('utf-8'), hashlib.sha256).hexdigest()


def _webhook_key(webhook_secret):
    value = webhook_secret[len('whsec_'):] if webhook_secret.startswith('whsec_') else webhook_secret
    try:
        key = base64.b64decode(value, validate=True)
    except ValueError:
        key = b''
    if not key:
        raise ValueError('The webhook secret is "whsec_" followed by base64 (the console\'s Access key page).')
    return key


def sign_webhook(webhook_secret, webhook_id, timestamp, body):
    """The webhook-signature value Paydesk sends: 'v1,' + base64 HMAC-SHA256 of 'id.timestamp.body'."""
    if isinstance(body, str):
        body = body.encode('utf-8')
    signed = ('%s.%s.' % (webhook_id, timestamp)).encode('utf-8') + body
    mac = hmac.new(_webhook_key(webhook_secret), signed, hashlib.sha256).digest()
    return 'v1,' + base64.b64encode(mac).decode('ascii')


def verify_webhook(raw_body, headers, webhook_secret, tolerance=WEBHOOK_TOLERANCE_SECONDS, now=None):
    """Checks a callback and returns its event (a dict); raises WebhookVerificationError when it fails.

    raw_body is the body exactly as received (bytes, before any JSON parsing: Flask's
    request.get_data()); headers any mapping of the request's headers; webhook_secret the whole whsec_...
    value of the key's mode. Several space-separated 'v1,...' signatures are accepted if any one matches.
    """
    lowered = {str(name).lower(): value for name, value in dict(headers).items()}
    webhook_id = lowered.get('webhook-id')
    timestamp = lowered.get('webhook-timestamp')
    signatures = lowered.get('webhook-signature')
    if not webhook_id or not timestamp or not signatures:
        raise WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header.')
    if not str(timestamp).isdigit():
        raise WebhookVerificationError('The webhook-timestamp header is not unix seconds.')
    current = int(now if now is not None else time.time())
    if abs(current - int(timestamp)) > tolerance:
        raise WebhookVerificationError('The webhook-timestamp is too far from our clock (a replay?).')
    if isinstance(raw_body, str):
        raw_body = raw_body.encode('utf-8')
    expected = sign_webhook(webhook_secret, webhook_id, timestamp, raw_body)[len('v1,'):]
    matched = False
    for candidate in str(signatures).split(' '):
        version, _, value = candidate.partition(',')
        # Constant time; every candidate is compared.
        if version == 'v1' and hmac.compare_digest(value.encode('ascii', 'replace'), expected.encode('ascii')):
            matched = True
    if not matched:
        raise WebhookVerificationError('No webhook-signature matches the body.')
    try:
        return json.loads(raw_body.decode('utf-8'))
    except ValueError:
        raise WebhookVerificationError('The callback body is not JSON.')


class _Collections:
    def __init__(self, client):
        self._client = client

    def create(self, params):
        """POST /gateway/v1/collections: send the payer to the answer's pay_url."""
        return self._client.request('POST', '/gateway/v1/collections', body=params)

    def get(self, trade_no):
        return self._client.request('GET', '/gateway/v1/collections/' + urllib.parse.quote(trade_no, safe=''))

    def get_by_out_trade_no(self, out_trade_no):
        return self._client.request('GET', '/gateway/v1/collections', query={'out_trade_no': out_trade_no})


class _Payouts:
    def __init__(self, client):
        self._client = client

    def create(self, params, idempotency_key=None):
        """POST /gateway/v1/payouts with an Idempotency-Key (yours, or a new UUID), the same on every retry."""
        return self._client.request('POST', '/gateway/v1/payouts', body=params,
                                    idempotency_key=idempotency_key or str(uuid.uuid4()))

    def get(self, trade_no):
        return self._client.request('GET', '/gateway/v1/payouts/' + urllib.parse.quote(trade_no, safe=''))

    def get_by_out_trade_no(self, out_trade_no):
        return self._client.request('GET', '/gateway/v1/payouts', query={'out_trade_no': out_trade_no})


class _Refunds:
    def __init__(self, client):
        self._client = client

    def create(self, trade_no, params, idempotency_key=None):
        """POST /gateway/v1/collections/{trade_no}/refunds with an Idempotency-Key (yours, or a new UUID)."""
        path = '/gateway/v1/collections/%s/refunds' % urllib.parse.quote(trade_no, safe='')
        return self._client.request('POST', path, body=params, idempotency_key=idempotency_key or str(uuid.uuid4()))

    def get(self, refund_no):
        return self._client.request('GET', '/gateway/v1/refunds/' + urllib.parse.quote(refund_no, safe=''))

    def get_by_out_refund_no(self, out_refund_no):
        return self._client.request('GET', '/gateway/v1/refunds', query={'out_refund_no': out_refund_no})


class _Balance:
    def __init__(self, client):
        self._client = client

    def get(self):
        """GET /gateway/v1/balance: the key's mode's available, locked and total."""
        return self._client.request('GET', '/gateway/v1/balance')


class Paydesk:
    """The gateway, signed with your merchant number, access key and secret key.

    Each call returns the answer's data (a dict); last_response holds its status, headers, whether it
    was replayed (Idempotent-Replayed) and how many attempts it took.
    """

    def __init__(self, base_url, merchant_no, access_key, secret_key, max_retries=3, timeout=30.0,
                 retry_delay=0.5, opener=None):
        for name, value in (('base_url', base_url), ('merchant_no', merchant_no), ('access_key', access_key),
                            ('secret_key', secret_key)):
            if not value:
                raise ValueError('Paydesk(...) needs %s.' % name)
        self.base_url = base_url.rstrip('/')
        self.merchant_no = merchant_no
        self.access_key = access_key
        self.secret_key = secret_key
        self.max_retries = max_retries
        self.timeout = timeout
        self.retry_delay = retry_delay
        # No proxy by default: a gateway call goes straight to your Paydesk server.
        self._opener = opener or urllib.request.build_opener(urllib.request.ProxyHandler({}))
        self.last_response = None
        self.collections = _Collections(self)
        self.payouts = _Payouts(self)
        self.refunds = _Refunds(self)
        self.balance = _Balance(self)

    @property
    def test_mode(self):
        """True for a test key (test_...): everything it creates and reads is test mode's."""
        return self.access_key.startswith('test_')

    def _backoff(self, attempt):
        full = self.retry_delay * (2 ** (attempt - 1))
        return full / 2 + random.random() * full / 2

    def request(self, method, path, query=None, body=None, idempotency_key=None):
        """One signed call, retried on network errors, timeouts, 429 and 5xx; returns the answer's data."""
        path_with_query = path + ('?' + urllib.parse.urlencode(query) if query else '')
        # Serialised once: these bytes are hashed, signed and sent, on every attempt.
        raw = b'' if body is None else json.dumps(body, separators=(',', ':'), ensure_ascii=False).encode('utf-8')
        attempt = 0
        while True:
            attempt += 1
            timestamp = str(int(time.time()))
            nonce = secrets.token_hex(16)  # a new one on every attempt
            headers = {
                'Accept': 'application/json',
                'X-Merchant-No': self.merchant_no,
                'X-Access-Key': self.access_key,
                'X-Timestamp': timestamp,
                'X-Nonce': nonce,
                'X-Signature': sign_request(self.secret_key, method, path_with_query, timestamp, nonce, raw),
            }
            if raw:
                headers['Content-Type'] = 'application/json'
            if idempotency_key:
                headers['Idempotency-Key'] = idempotency_key
            request = urllib.request.Request(self.base_url + path_with_query, data=raw or None, headers=headers,
                                             method=method)
            try:
                with self._opener.open(request, timeout=self.timeout) as response:
                    status, answer_headers, text = response.status, dict(response.headers), response.read()
            except urllib.error.HTTPError as error:  # 4xx and 5xx answers carry {"message", "code"}
                status, answer_headers, text = error.code, dict(error.headers), error.read()
            except (urllib.error.URLError, OSError) as error:  # no answer: connection refused, timeout
                if attempt <= self.max_retries:
                    time.sleep(self._backoff(attempt))
                    continue
                raise PaydeskError(0, 'network_error', 'No answer from Paydesk at %s: %s' % (self.base_url, error))
            try:
                answer = json.loads(text) if text else None
            except ValueError:
                answer = None
            headers_lower = {name.lower(): value for name, value in answer_headers.items()}
            if 200 <= status < 300 and isinstance(answer, dict) and isinstance(answer.get('data'), dict):
                self.last_response = {
                    'status': status,
                    'headers': headers_lower,
                    'replayed': headers_lower.get('idempotent-replayed') == 'true',
                    'idempotency_key': idempotency_key,
                    'attempts': attempt,
                }
                return answer['data']
            code = answer.get('code') if isinstance(answer, dict) else None
            in_flight = status == 409 and idempotency_key and code == 'idempotency_key_in_flight'
            if (status == 429 or status >= 500 or in_flight) and attempt <= self.max_retries:
                retry_after = headers_lower.get('retry-after', '')
                wait = float(retry_after) if status == 429 and retry_after.isdigit() else self._backoff(attempt)
                time.sleep(wait)
                continue
            message = answer.get('message') if isinstance(answer, dict) else None
            raise PaydeskError(status, code or ('server_error' if status >= 500 else 'unknown_error'),
                               message or 'Paydesk answered HTTP %s.' % status, answer, headers_lower)
