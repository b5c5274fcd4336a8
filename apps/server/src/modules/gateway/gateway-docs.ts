// What a developer integrates from (DESIGN section 6): the Markdown of the gateway reference (OpenAPI
// info.description, rendered by Scalar at /gateway/docs) and its code examples. The examples are run by
// gateway-docs.test.ts against a server that checks the signature rule, so they are kept working.
//
// The examples are String.raw templates so that their backslashes ("\n") reach the reader as written;
// that is also why none of them contains a backtick or a dollar sign followed by a brace.

/** The values the examples are written with; a reader replaces them (and the test does, with its own). */
export const EXAMPLE_PLACEHOLDERS = {
  BASE_URL: 'http://localhost:8080',
  MERCHANT_NO: 'M100001',
  ACCESS_KEY: 'YOUR_ACCESS_KEY',
  SECRET: 'YOUR_SECRET',
  WEBHOOK_SECRET: 'whsec_YOUR_WEBHOOK_SECRET',
} as const;

/** The request the examples send. */
export const EXAMPLE_REQUEST = {
  method: 'POST',
  path: '/gateway/v1/collections',
  body: '{"out_trade_no":"ORDER-1001","amount":"100.00"}',
} as const;

export type SigningLanguage = 'curl' | 'node' | 'python' | 'php' | 'java';
export type CallbackLanguage = 'node' | 'python';

const CURL_EXAMPLE = String.raw`#!/usr/bin/env bash
# create-collection.sh: create a collection, signed per the gateway rule. Needs bash, curl and openssl.
set -euo pipefail

BASE_URL='http://localhost:8080'     # your Paydesk server, without a trailing slash
MERCHANT_NO='M100001'
ACCESS_KEY='YOUR_ACCESS_KEY'
SECRET='YOUR_SECRET'

METHOD='POST'
PATH_WITH_QUERY='/gateway/v1/collections'
BODY='{"out_trade_no":"ORDER-1001","amount":"100.00"}'

TIMESTAMP=$(date +%s)
NONCE=$(openssl rand -hex 16)
BODY_SHA256=$(printf '%s' "$BODY" | openssl dgst -sha256 -r | cut -d' ' -f1)
SIGNATURE=$(printf '%s\n%s\n%s\n%s\n%s' "$METHOD" "$PATH_WITH_QUERY" "$TIMESTAMP" "$NONCE" "$BODY_SHA256" |
  openssl dgst -sha256 -hmac "$SECRET" -r | cut -d' ' -f1)

# --data-binary sends the body byte for byte, as it was hashed.
curl -sS --fail-with-body --write-out '\nHTTP %{http_code}\n' -X "$METHOD" "$BASE_URL$PATH_WITH_QUERY" \
  -H 'Content-Type: application/json' \
  -H "X-Merchant-No: $MERCHANT_NO" \
  -H "X-Access-Key: $ACCESS_KEY" \
  -H "X-Timestamp: $TIMESTAMP" \
  -H "X-Nonce: $NONCE" \
  -H "X-Signature: $SIGNATURE" \
  --data-binary "$BODY"
`;

const NODE_EXAMPLE = String.raw`// create-collection.mjs: create a collection, signed per the gateway rule.
// Node.js 18 or later, no dependencies: node create-collection.mjs
import { createHash, createHmac, randomBytes } from 'node:crypto';

const BASE_URL = 'http://localhost:8080'; // your Paydesk server
const MERCHANT_NO = 'M100001';
const ACCESS_KEY = 'YOUR_ACCESS_KEY';
const SECRET = 'YOUR_SECRET';

/**
 * Sends one signed request and resolves to { status, body }. pathWithQuery is exactly what goes on the
 * wire, already percent-encoded: '/gateway/v1/collections?out_trade_no=ORDER-1001'.
 */
async function callGateway(method, pathWithQuery, payload) {
  const body = payload === undefined ? '' : JSON.stringify(payload);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(16).toString('hex');
  const bodySha256 = createHash('sha256').update(body, 'utf8').digest('hex');
  const stringToSign = [method, pathWithQuery, timestamp, nonce, bodySha256].join('\n');
  const signature = createHmac('sha256', Buffer.from(SECRET, 'utf8')).update(stringToSign, 'utf8').digest('hex');

  const headers = {
    'X-Merchant-No': MERCHANT_NO,
    'X-Access-Key': ACCESS_KEY,
    'X-Timestamp': timestamp,
    'X-Nonce': nonce,
    'X-Signature': signature,
  };
  if (body !== '') headers['Content-Type'] = 'application/json';

  const response = await fetch(BASE_URL.replace(/\/+$/, '') + pathWithQuery, {
    method,
    headers,
    body: body === '' ? undefined : body,
  });
  const text = await response.text();
  let answer = text;
  try {
    answer = JSON.parse(text);
  } catch {
    // not JSON (a proxy's error page): keep the text
  }
  return { status: response.status, body: answer };
}

const { status, body } = await callGateway('POST', '/gateway/v1/collections', {
  out_trade_no: 'ORDER-1001',
  amount: '100.00',
});
console.log(status, JSON.stringify(body, null, 2));
if (status !== 201) process.exitCode = 1;
`;

const PYTHON_EXAMPLE = String.raw`# create_collection.py: create a collection, signed per the gateway rule.
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
ACCESS_KEY = 'YOUR_ACCESS_KEY'
SECRET = 'YOUR_SECRET'


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
    signature = hmac.new(SECRET.encode('utf-8'), string_to_sign.encode('utf-8'), hashlib.sha256).hexdigest()

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
`;

const PHP_EXAMPLE = String.raw`<?php
// create_collection.php: create a collection, signed per the gateway rule.
// PHP 7.4 or later with the curl extension: php create_collection.php

const BASE_URL = 'http://localhost:8080'; // your Paydesk server
const MERCHANT_NO = 'M100001';
const ACCESS_KEY = 'YOUR_ACCESS_KEY';
const SECRET = 'YOUR_SECRET';

/**
 * Sends one signed request and returns [status, decoded body]. $pathWithQuery is exactly what goes on
 * the wire, already percent-encoded: '/gateway/v1/collections?out_trade_no=ORDER-1001'.
 */
function callGateway(string $method, string $pathWithQuery, ?array $payload = null): array
{
    $body = $payload === null ? '' : json_encode($payload, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
    $timestamp = (string) time();
    $nonce = bin2hex(random_bytes(16));
    $stringToSign = implode("\n", [$method, $pathWithQuery, $timestamp, $nonce, hash('sha256', $body)]);
    $signature = hash_hmac('sha256', $stringToSign, SECRET);

    $headers = [
        'X-Merchant-No: ' . MERCHANT_NO,
        'X-Access-Key: ' . ACCESS_KEY,
        'X-Timestamp: ' . $timestamp,
        'X-Nonce: ' . $nonce,
        'X-Signature: ' . $signature,
    ];
    $curl = curl_init(rtrim(BASE_URL, '/') . $pathWithQuery);
    curl_setopt_array($curl, [
        CURLOPT_CUSTOMREQUEST => $method,
        CURLOPT_RETURNTRANSFER => true,
        CURLOPT_TIMEOUT => 30,
    ]);
    if ($body !== '') {
        $headers[] = 'Content-Type: application/json';
        curl_setopt($curl, CURLOPT_POSTFIELDS, $body);
    }
    curl_setopt($curl, CURLOPT_HTTPHEADER, $headers);
    $answer = curl_exec($curl);
    if ($answer === false) {
        throw new RuntimeException('Request failed: ' . curl_error($curl));
    }
    $status = curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
    $decoded = json_decode($answer, true);
    return [$status, $decoded === null ? $answer : $decoded];
}

[$status, $answer] = callGateway('POST', '/gateway/v1/collections', [
    'out_trade_no' => 'ORDER-1001',
    'amount' => '100.00',
]);
echo $status, PHP_EOL, json_encode($answer, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), PHP_EOL;
exit($status === 201 ? 0 : 1);
`;

const JAVA_EXAMPLE = String.raw`// CreateCollection.java: create a collection, signed per the gateway rule.
// Java 11 or later, no dependencies: java CreateCollection.java
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

public class CreateCollection {
    static final String BASE_URL = "http://localhost:8080"; // your Paydesk server
    static final String MERCHANT_NO = "M100001";
    static final String ACCESS_KEY = "YOUR_ACCESS_KEY";
    static final String SECRET = "YOUR_SECRET";

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final SecureRandom RANDOM = new SecureRandom();

    public static void main(String[] args) throws Exception {
        String body = "{\"out_trade_no\":\"ORDER-1001\",\"amount\":\"100.00\"}";
        HttpResponse<String> response = callGateway("POST", "/gateway/v1/collections", body);
        System.out.println(response.statusCode());
        System.out.println(response.body());
        System.exit(response.statusCode() == 201 ? 0 : 1);
    }

    /**
     * Sends one signed request. pathWithQuery is exactly what goes on the wire, already percent-encoded
     * ("/gateway/v1/collections?out_trade_no=ORDER-1001"); body is the JSON text, or "" for none.
     */
    static HttpResponse<String> callGateway(String method, String pathWithQuery, String body) throws Exception {
        byte[] bodyBytes = body.getBytes(StandardCharsets.UTF_8);
        String timestamp = Long.toString(System.currentTimeMillis() / 1000);
        byte[] nonceBytes = new byte[16];
        RANDOM.nextBytes(nonceBytes);
        String nonce = hex(nonceBytes);
        String bodySha256 = hex(MessageDigest.getInstance("SHA-256").digest(bodyBytes));
        String stringToSign = String.join("\n", method, pathWithQuery, timestamp, nonce, bodySha256);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String signature = hex(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));

        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(BASE_URL.replaceAll("/+$", "") + pathWithQuery))
            .header("X-Merchant-No", MERCHANT_NO)
            .header("X-Access-Key", ACCESS_KEY)
            .header("X-Timestamp", timestamp)
            .header("X-Nonce", nonce)
            .header("X-Signature", signature)
            .method(method, body.isEmpty()
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(bodyBytes));
        if (!body.isEmpty()) {
            request.header("Content-Type", "application/json");
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            out.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return out.toString();
    }
}
`;

const NODE_CALLBACK_EXAMPLE = String.raw`// paydesk-callbacks.mjs: receive Paydesk callbacks and verify them (Standard Webhooks).
// Node.js 18 or later, no dependencies: node paydesk-callbacks.mjs, then set your notify URL to
// https://<your host>/paydesk/callbacks
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const WEBHOOK_SECRET = 'whsec_YOUR_WEBHOOK_SECRET'; // shown beside your access key
const PORT = Number(process.env.PORT || 3000);
const TOLERANCE_SECONDS = 5 * 60;

// The key is the base64-decoded part after "whsec_".
const KEY = Buffer.from(WEBHOOK_SECRET.replace(/^whsec_/, ''), 'base64');

/** True when the headers sign exactly these raw body bytes with our secret, recently. */
function verifyCallback(rawBody, headers) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  // An old (replayed) or future timestamp is refused.
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) {
    return false;
  }
  const expected = createHmac('sha256', KEY).update(id + '.' + timestamp + '.').update(rawBody).digest();
  // Space-separated "v1,<base64>" entries: any one matching is enough.
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

// Every retry carries the same webhook-id. Keep the handled ids in your database (a unique index) so a
// retry after a lost answer is acknowledged without being handled twice.
const handledEventIds = new Set();

createServer((request, response) => {
  if (request.method !== 'POST' || request.url !== '/paydesk/callbacks') {
    response.writeHead(404).end();
    return;
  }
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const rawBody = Buffer.concat(chunks); // verify the bytes as received, before parsing them
    if (!verifyCallback(rawBody, request.headers)) {
      response.writeHead(401).end('invalid signature');
      return;
    }
    const eventId = request.headers['webhook-id'];
    if (handledEventIds.has(eventId)) {
      console.log('duplicate', eventId);
    } else {
      const event = JSON.parse(rawBody.toString('utf8'));
      // Answer within 15 seconds: hand slow work to a queue instead of doing it here.
      console.log('handled', event.type, event.data.out_trade_no, event.data.status);
      handledEventIds.add(eventId);
    }
    response.writeHead(204).end();
  });
}).listen(PORT, () => console.log('Listening on port ' + PORT));
`;

const PYTHON_CALLBACK_EXAMPLE = String.raw`# paydesk_callbacks.py: receive Paydesk callbacks and verify them (Standard Webhooks).
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
`;

/** Create a collection with a signed request, per language. */
export const SIGNING_EXAMPLES: Record<SigningLanguage, string> = {
  curl: CURL_EXAMPLE,
  node: NODE_EXAMPLE,
  python: PYTHON_EXAMPLE,
  php: PHP_EXAMPLE,
  java: JAVA_EXAMPLE,
};

/** Receive and verify callbacks by hand, per language. */
export const CALLBACK_VERIFICATION_EXAMPLES: Record<CallbackLanguage, string> = {
  node: NODE_CALLBACK_EXAMPLE,
  python: PYTHON_CALLBACK_EXAMPLE,
};

/** The signing examples as OpenAPI x-codeSamples, for the create-collection operation. */
export const CREATE_COLLECTION_CODE_SAMPLES: Array<{ lang: string; label: string; source: string }> = [
  { lang: 'Shell', label: 'curl', source: CURL_EXAMPLE },
  { lang: 'JavaScript', label: 'Node.js', source: NODE_EXAMPLE },
  { lang: 'Python', label: 'Python', source: PYTHON_EXAMPLE },
  { lang: 'PHP', label: 'PHP', source: PHP_EXAMPLE },
  { lang: 'Java', label: 'Java', source: JAVA_EXAMPLE },
];

/** Fixed inputs and their results, printed in the reference so a developer can check an implementation. */
export const SIGNING_WORKED_EXAMPLE = {
  secret: 'my-access-key-secret',
  method: 'POST',
  pathWithQuery: '/gateway/v1/collections',
  timestamp: '1767225600',
  nonce: 'k3Jd9sLq2VbX7nRt',
  body: EXAMPLE_REQUEST.body,
  bodySha256: '3d9441b75782fcc1bbdb4c964d4b3ca95953c539410a6ce19b5836b9e035007b',
  signature: '3607adde2462c00562d947dbbc8107549f5883886e0a33db2ade5ad31214cc72',
} as const;

export const EMPTY_BODY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export const CALLBACK_WORKED_EXAMPLE = {
  webhookSecret: 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
  id: 'evt_0001',
  timestamp: '1767225900',
  body: '{"id":"evt_0001","type":"collection.paid","created_at":"2026-01-01T00:05:00.000Z","data":{"trade_no":"C2026010100000001","out_trade_no":"ORDER-1001","status":"paid"}}',
  signature: 'v1,H19U/WFtQUufzPPUYTSS/ZNErra6J/uGrV+P4CR5s08=',
} as const;

/** Callback schedule: the delay before each retry after a failed attempt (DESIGN section 6). */
export const CALLBACK_RETRY_DELAYS = [
  '15 s',
  '1 min',
  '5 min',
  '15 min',
  '1 h',
  '3 h',
  '6 h',
  '12 h',
  '24 h',
];

const fence = (language: string, code: string) => `\`\`\`${language}\n${code.trimEnd()}\n\`\`\``;

const w = SIGNING_WORKED_EXAMPLE;
const cb = CALLBACK_WORKED_EXAMPLE;

/** The Markdown of the reference's introduction: everything besides the operations themselves. */
export const GATEWAY_API_DESCRIPTION = `The Paydesk gateway is the API your own server calls to collect payments (collections), pay out
(payouts) and read your balance. It is JSON in and out with snake_case names; every request is signed
with your access key, and Paydesk tells you about every finished order with a signed callback.

## Overview

1. Your server **creates a collection** (\`POST /gateway/v1/collections\`) and sends the payer to the
   \`pay_url\` of the answer.
2. The payer pays (or not) before \`expires_at\` (30 minutes by default).
3. Paydesk **calls your notify URL** with \`collection.paid\`, \`collection.closed\` or \`collection.failed\`;
   you verify the signature, answer 2xx, and deliver the goods.
4. At any time you can **query** the order (\`GET /gateway/v1/collections/{trade_no}\`) instead of
   waiting for the callback.

Payouts work the same way: \`POST /gateway/v1/payouts\`, then \`payout.succeeded\`, \`payout.failed\` or
\`payout.refunded\` callbacks.

- **Amounts** are decimal strings in your merchant currency, never numbers: \`"100.00"\`, \`"25000"\`
  (see Amounts below).
- **Times** are ISO 8601 in UTC: \`"2026-01-01T00:05:00.000Z"\`.
- **Order numbers**: \`trade_no\` is Paydesk's; \`out_trade_no\` is yours and unique among your orders.
- This reference is also available as an OpenAPI 3.1 document at \`/gateway/openapi.json\`.

## Base URL

Every path in this reference starts with \`/gateway/v1/\` and is relative to the address of your
Paydesk server, for example \`https://pay.example.com/gateway/v1/collections\`. On a local demo server
(\`npm start\`) that is \`${EXAMPLE_PLACEHOLDERS.BASE_URL}\`, whose demo merchant \`${EXAMPLE_PLACEHOLDERS.MERCHANT_NO}\` has an
open **sandbox** channel: its \`pay_url\` opens a test checkout page with Pay and Fail buttons, so the whole
flow, callbacks included, runs without real money.

## Authentication

Every request carries five headers. The access key, its secret and the webhook secret are on the
console's **Access key** page (revealing the secret asks for your payment password and authenticator code).

- \`X-Merchant-No\`: Your merchant number, e.g. \`M100001\`.
- \`X-Access-Key\`: Your access key (the public half).
- \`X-Timestamp\`: The current time in **unix seconds**; refused when more than **300 seconds** away from Paydesk's clock.
- \`X-Nonce\`: A fresh random string of **16 to 64** characters from \`A-Z a-z 0-9 _ -\`; refused if it was already used by your account in the last **10 minutes**. Use a new one for every request, retries included.
- \`X-Signature\`: The signature below, as **lowercase hex**.

Requests with a body also send \`Content-Type: application/json\`.

**The signature** is the HMAC-SHA256, keyed with your access key **secret** (its UTF-8 bytes), of these
five lines joined by \`\\n\` (no newline at the end):

\`\`\`text
METHOD
PATH_WITH_QUERY
TIMESTAMP
NONCE
hex(sha256(raw body))
\`\`\`

- \`METHOD\` is upper case: \`POST\`, \`GET\`.
- \`PATH_WITH_QUERY\` is the path and query string exactly as sent on the request line, without scheme
  and host: \`/gateway/v1/collections?out_trade_no=ORDER-1001\`. Percent-encode query values yourself
  before signing, and send that same string; do not let your HTTP client re-encode or reorder it.
- \`TIMESTAMP\` and \`NONCE\` are the values of the \`X-Timestamp\` and \`X-Nonce\` headers.
- The last line is the lowercase hex SHA-256 of the body bytes exactly as sent. A request without a body
  (every \`GET\`) hashes the empty string: \`${EMPTY_BODY_SHA256}\`. Serialise your JSON
  once, hash that string and send that same string.

**Worked example**, to check your implementation: with the secret \`${w.secret}\`, the request
\`${w.method} ${w.pathWithQuery}\` with the body \`${w.body}\`, timestamp \`${w.timestamp}\` and nonce
\`${w.nonce}\`, the body hash is \`${w.bodySha256}\` and the string to sign is

\`\`\`text
${w.method}
${w.pathWithQuery}
${w.timestamp}
${w.nonce}
${w.bodySha256}
\`\`\`

so \`X-Signature\` is \`${w.signature}\`.

Complete programs that sign and send a request are in **Examples: create a collection** below.

### IP whitelist

Paydesk only accepts gateway calls from the IP addresses and ranges on the console's **IP whitelist**
page (IPv4, IPv6 or CIDR, one per line). **An empty whitelist refuses every call**: add your servers'
outgoing addresses before the first call. A call from another address answers 403 \`ip_not_allowed\`.

## Errors

Every error answers a JSON body \`{"message": "...", "code": "..."}\` (plus \`request_id\`, to quote to
support). React to the \`code\`; the message is for people. A refused signature never says which part
was wrong.

| Status and \`code\` | Meaning |
| --- | --- |
| 401 \`signature_invalid\` | The signature does not match (wrong secret, a string to sign built differently from the request sent, or a body changed after hashing). |
| 401 \`timestamp_out_of_window\` | \`X-Timestamp\` is more than 300 s from Paydesk's clock. Sync your server's clock (NTP). |
| 401 \`nonce_reused\` | This \`X-Nonce\` was already used in the last 10 minutes. |
| 401 \`unknown_key\` | No such merchant number and access key pair (or the key was regenerated). |
| 403 \`ip_not_allowed\` | The calling IP is not on your IP whitelist (an empty whitelist refuses every call). |
| 403 \`merchant_disabled\` | Your merchant account is disabled. |
| 404 \`not_found\` | No such order among yours (another merchant's order answers 404 too). |
| 409 \`out_trade_no_taken\` | This \`out_trade_no\` is already used by one of your orders; the answer carries that order's \`trade_no\`. Query it instead of creating it again. |
| 409 \`conflict\` | A payout with the same \`Idempotency-Key\` is still being processed. |
| 415 \`unsupported_media_type\` | The request has a body that is not \`Content-Type: application/json\` (a form, plain text, ...); nothing was checked or spent. |
| 422 \`validation_failed\` | A field is missing or malformed; \`errors\` names each field: \`{"errors": {"amount": ["..."]}}\`. |
| 422 \`amount_out_of_range\` | The amount is outside the channel's minimum and maximum. |
| 422 \`channel_unavailable\` | You have no open channel for this kind of order (or not the \`channel\` you named). |
| 422 \`insufficient_funds\` | A payout larger than your available balance; nothing was written. |
| 422 \`idempotency_key_reused\` | The same \`Idempotency-Key\` with a different request body. |
| 429 \`throttled\` | Too many requests: more than your quota of signed calls a minute, or too many refused calls from your IP address. Wait the number of seconds in the \`Retry-After\` header. |
| 5xx \`server_error\`, \`service_unavailable\` | Retry later with a new nonce. A collection is retried with the same \`out_trade_no\` (a 409 then means the first attempt went through), a payout with the same \`Idempotency-Key\`. |

## Amounts

Amounts are decimal strings in your merchant currency, with at most the currency's decimals. Parse and
add them as decimals (or integers of minor units), never as binary floating point.

| Currency | Decimals | Example |
| --- | --- | --- |
| CNY | 2 | \`"100.00"\` |
| INR | 2 | \`"2500.50"\` |
| BRL | 2 | \`"99.90"\` |
| VND | 0 | \`"250000"\` |

Each order also carries its \`fee\` (fixed when the order is created) and its \`currency\`.

## Order states

**Collection** \`status\`: \`to_be_paid\` -> \`paid\` | \`closed\` (not paid before \`expires_at\`) |
\`failed\`. \`paid\`, \`closed\` and \`failed\` are final. A paid collection's \`settlement_status\` then
goes \`unsettled\` -> \`pending_settlement\` -> \`settled\` (its net amount is in your available balance).

**Payout** \`status\`: \`pending\` -> \`processing\` -> \`success\` | \`failed\`; \`pending\` -> \`cancelled\` |
\`rejected\`; and \`success\` -> \`refund_received\` when the bank returns the money later (it is credited
back to your available balance).

**Payout idempotency**: \`POST /gateway/v1/payouts\` accepts an \`Idempotency-Key\` header. The same key
with the same body replays the first answer (with \`Idempotent-Replayed: true\`); keys are kept for 24
hours. Retry a payout whose answer you did not get with the same key, never with a new one.

## Callbacks

When an order reaches a final state, Paydesk POSTs an event to the order's \`notify_url\`, or to your
account's default notify URL (console, **Access key** page). Callbacks follow the
[Standard Webhooks](https://www.standardwebhooks.com/) specification, so its ready-made libraries verify
them in any language.

\`\`\`json
{
  "id": "evt_0001",
  "type": "collection.paid",
  "created_at": "2026-01-01T00:05:00.000Z",
  "data": {
    "trade_no": "C2026010100000001",
    "out_trade_no": "ORDER-1001",
    "status": "paid",
    "amount": "100.00",
    "fee": "0.60",
    "currency": "CNY",
    "channel": "sandbox",
    "pay_url": "https://pay.example.com/sandbox/pay/C2026010100000001",
    "expires_at": "2026-01-01T00:30:00.000Z",
    "created_at": "2026-01-01T00:00:00.000Z",
    "paid_at": "2026-01-01T00:05:00.000Z",
    "settlement_status": "unsettled"
  }
}
\`\`\`

\`data\` is the order exactly as the query endpoints answer it (a Collection or a Payout).

**Event types**

- \`collection.paid\`: The payer paid.
- \`collection.closed\`: The collection expired unpaid.
- \`collection.failed\`: The payment failed.
- \`payout.succeeded\`: The payout reached the payee.
- \`payout.failed\`: The payout failed; \`failure_reason\` says why.
- \`payout.refunded\`: The bank returned a successful payout; the amount is back in your available balance.

**Headers**

- \`webhook-id\`: The event id (the body's \`id\`). **The same on every retry**: deduplicate on it.
- \`webhook-timestamp\`: Unix seconds of this attempt. Refuse values more than 5 minutes from your clock (replays).
- \`webhook-signature\`: \`v1,\` followed by the base64 HMAC-SHA256 of \`webhook-id + "." + webhook-timestamp + "." + raw body\`. The key is the **base64-decoded** part of your webhook secret after \`whsec_\`. The header may hold several space-separated \`v1,...\` values; accept the callback if any one matches.

**To verify** a callback: compute the signature over the **raw body bytes as received** (before any JSON
parsing or re-serialising), compare it in constant time with each \`v1,\` value of the header, and check
the timestamp. Answer 401 (or any non-2xx) when it does not match. Frameworks that parse JSON for you
lose those bytes: in Express use \`express.raw({ type: 'application/json' })\` on that route, in Flask
\`request.get_data()\`, in Laravel \`$request->getContent()\`.

Worked example: with the webhook secret \`${cb.webhookSecret}\`, \`webhook-id: ${cb.id}\`,
\`webhook-timestamp: ${cb.timestamp}\` and the body

\`\`\`json
${cb.body}
\`\`\`

the signature is \`${cb.signature}\`.

**Answering and retries**

- Answer **2xx within 15 seconds**: that ends the delivery. Handle slow work after answering (a queue).
- Any other answer, a timeout or a connection error is retried with backoff and some jitter, after
  ${CALLBACK_RETRY_DELAYS.join(', ')}; after that last retry the event is given up. Every attempt is
  logged; the console shows the log and can send the latest callback again.
- Retries carry the same \`webhook-id\` and body: record handled ids (a unique index) and answer 2xx
  to a duplicate without handling it twice. Callbacks for different orders may arrive in any order; when
  in doubt, query the order.
- The notify URL must be \`http\` or \`https\` and, in production, reachable on a public address.

## Examples: create a collection

Each program creates the collection \`ORDER-1001\` for \`100.00\` with a signed
\`POST /gateway/v1/collections\` and prints the answer: \`201\` with \`{"data": {...}}\`, whose
\`pay_url\` is where you send the payer. Replace the values at the top (\`BASE_URL\`, \`MERCHANT_NO\`,
\`ACCESS_KEY\`, \`SECRET\`) with yours. Each builds the body once and hashes and sends those same bytes.

### curl (bash + openssl)

${fence('bash', CURL_EXAMPLE)}

### Node.js (node:crypto + fetch)

${fence('js', NODE_EXAMPLE)}

### Python 3 (hmac, hashlib, urllib)

${fence('python', PYTHON_EXAMPLE)}

With \`requests\` instead of urllib, send the same bytes you hashed:
\`requests.request(method, url, data=body, headers=headers)\` (not \`json=payload\`, which serialises again).

### PHP (hash_hmac + curl)

${fence('php', PHP_EXAMPLE)}

### Java (javax.crypto.Mac + java.net.http)

${fence('java', JAVA_EXAMPLE)}

## Examples: verify a callback

A small server that receives callbacks on \`/paydesk/callbacks\`, verifies them by hand (HMAC and a
constant-time compare), deduplicates on \`webhook-id\` and answers 204. Replace \`WEBHOOK_SECRET\` with
yours.

### Node.js

${fence('js', NODE_CALLBACK_EXAMPLE)}

### Python 3

${fence('python', PYTHON_CALLBACK_EXAMPLE)}

### With a Standard Webhooks library

The \`standardwebhooks\` libraries do the same checks (signature, constant-time compare, 5-minute
timestamp window). Pass them the whole \`whsec_...\` secret, the raw body and the headers:

\`\`\`js
// npm install standardwebhooks
import { Webhook } from 'standardwebhooks';

const event = new Webhook(WEBHOOK_SECRET).verify(rawBody, request.headers); // throws if invalid
\`\`\`

\`\`\`python
# pip install standardwebhooks
from standardwebhooks.webhooks import Webhook

event = Webhook(WEBHOOK_SECRET).verify(raw_body, dict(request_headers))  # raises if invalid
\`\`\`
`;
