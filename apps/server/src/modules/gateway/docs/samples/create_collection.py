# create_collection.py: create a collection, signed per the gateway rule.
# Python 3.8 or later, standard library only: python3 create_collection.py
import hashlib
import hmac
import json
import secrets
import time
import urllib.error
import urllib.request

BASE_URL = 'http://localhost:8080'  # your Paydesk server
MERCHANT_NO = 'M100001'
ACCESS_KEY = 'test_YOUR_ACCESS_KEY'
SECRET_KEY = 'YOUR_SECRET_KEY'


def call_gateway(method, path_with_query, payload=None):
    """Sends one signed request and returns (status, body).

    path_with_query is exactly what goes on the wire, already percent-encoded:
    '/gateway/v1/collections?out_trade_no=ORDER-1001'.
    """
    body = b'' if payload is None else json.dumps(
        payload, separators=(',', ':'), ensure_ascii=False).encode('utf-8')
    timestamp = str(int(time.time()))
    nonce = secrets.token_hex(16)
    body_sha256 = hashlib.sha256(body).hexdigest()
    string_to_sign = '\n'.join([method, path_with_query, timestamp, nonce, body_sha256])
    signature = hmac.new(SECRET_KEY.encode('utf-8'), string_to_sign.encode('utf-8'), hashlib.sha256).hexdigest()

    headers = {
        'X-Merchant-No': MERCHANT_NO,
        'X-Access-Key': ACCESS_KEY,
        'X-Timestamp': timestamp,
        'X-Nonce': nonce,
        'X-Signature': signature,
    }
    if body:
        headers['Content-Type'] = 'application/json'
    request = urllib.request.Request(
        BASE_URL.rstrip('/') + path_with_query, data=body or None, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:  # 4xx and 5xx answers carry {"message", "code"} too
        status, raw = error.code, error.read()
    try:
        return status, json.loads(raw)
    except ValueError:  # not JSON (a proxy's error page): keep the text
        return status, raw.decode('utf-8', 'replace')


if __name__ == '__main__':
    status, answer = call_gateway('POST', '/gateway/v1/collections', {
        'out_trade_no': 'ORDER-1001',
        'amount': '100.00',
    })
    print(status, json.dumps(answer, indent=2, ensure_ascii=False))
    raise SystemExit(0 if status == 201 else 1)
