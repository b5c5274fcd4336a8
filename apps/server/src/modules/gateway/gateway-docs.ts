import { readFileSync } from 'node:fs';

// What a developer integrates from (DESIGN section 6): the Markdown of the gateway reference (OpenAPI
// info.description, rendered by Scalar at /gateway/docs) and its code examples. The examples are files in
// docs/samples/, read once at start; gateway-docs.test.ts runs them against a server that checks the
// signature rule, so they are kept working.

/** The values the examples are written with; a reader replaces them (and the test does, with its own). */
export const EXAMPLE_PLACEHOLDERS = {
  BASE_URL: 'http://localhost:8080',
  MERCHANT_NO: 'M100001',
  /** A test key (DESIGN 12): try everything in test mode first. */
  ACCESS_KEY: 'test_YOUR_ACCESS_KEY',
  SECRET_KEY: 'YOUR_SECRET_KEY',
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

/** A code sample of the reference, as the file a developer would save it as (docs/samples/). */
const sample = (name: string) => readFileSync(new URL(`./docs/samples/${name}`, import.meta.url), 'utf8');

const CURL_EXAMPLE = sample('create-collection.sh');
const NODE_EXAMPLE = sample('create-collection.mjs');
const PYTHON_EXAMPLE = sample('create_collection.py');
const PHP_EXAMPLE = sample('create_collection.php');
const JAVA_EXAMPLE = sample('CreateCollection.java');
const NODE_CALLBACK_EXAMPLE = sample('paydesk-callbacks.mjs');
const PYTHON_CALLBACK_EXAMPLE = sample('paydesk_callbacks.py');
const NODE_CLIENT_EXAMPLE = sample('paydesk-node-client.mjs');

/** The single-file Python client (packages/python-client/paydesk.py), shown whole in the reference. */
export const PYTHON_CLIENT_SOURCE = readFileSync(
  new URL('../../../../../packages/python-client/paydesk.py', import.meta.url),
  'utf8',
);

/** The client libraries' examples, as files (the Node one runs against a server in client-libraries.test.ts). */
export const CLIENT_LIBRARY_EXAMPLES = { node: NODE_CLIENT_EXAMPLE } as const;

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

/** Callback schedule: when each retry is due, counted from the first attempt (DESIGN section 6). */
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
  '36 h',
  '48 h',
  '72 h',
];

const fence = (language: string, code: string) => `\`\`\`${language}\n${code.trimEnd()}\n\`\`\``;

const w = SIGNING_WORKED_EXAMPLE;
const cb = CALLBACK_WORKED_EXAMPLE;

/** The Markdown of the reference's introduction: everything besides the operations themselves. */
export const GATEWAY_API_DESCRIPTION = `The Paydesk gateway is the API your own server calls to collect payments (collections), pay out
(payouts) and read your balance. It is JSON in and out with snake_case names; every request is signed
with your access key's secret key, and Paydesk tells you about every finished order with a signed callback.

You need four values from the console's **Settings > Access key** page: your **merchant number**
(\`M100001\`), your **access key** (\`test_...\` or \`live_...\`), its **secret key** (signs your requests;
never leaves your server) and its **webhook secret** (\`whsec_...\`, verifies our callbacks). This reference
calls them by these names everywhere.

## Quick start

1. **Start in test mode.** On the console, turn on the header's **Test mode** switch and open **Settings >
   Access key**: generate (or reveal, with your payment password and authenticator code) the **test** access
   key, its secret key and its webhook secret, and set your notify URL. Test mode runs on the sandbox and
   test money: nothing real moves.
2. **Add your servers to the IP whitelist** (**Settings > IP whitelist**): **an empty whitelist refuses
   every call** (403 \`ip_not_allowed\`). On a local demo server, \`127.0.0.1\` and \`::1\`.
3. **Install a client** (see Client libraries below: \`@paydesk/node-client\` for Node.js, \`paydesk.py\`
   for Python) or sign requests yourself (Authentication below).
4. **Create a test order, pay it, refund it, verify the callbacks**: the Node client's example below does
   all of it; on the sandbox's checkout page (the order's \`pay_url\`) press **Pay**.
5. When that works, go through the **Go live checklist** at the end of this reference.

## Overview

1. Your server **creates a collection** (\`POST /gateway/v1/collections\`) and sends the payer to the
   \`pay_url\` of the answer. What it opens is the channel's: on a bank transfer channel, a Paydesk page
   with the account, the exact amount, the reference to write and the country's QR code (VietQR, Pix,
   UPI); on a Razorpay channel, Razorpay's payment page; on the sandbox, a test checkout.
2. The payer pays (or not) before \`expires_at\` (30 minutes by default).
3. Paydesk **calls your notify URL** with \`collection.paid\`, \`collection.closed\` or \`collection.failed\`;
   you verify the signature, answer 2xx, and deliver the goods.
4. At any time you can **query** the order (\`GET /gateway/v1/collections/{trade_no}\`) instead of
   waiting for the callback.

Payouts work the same way: \`POST /gateway/v1/payouts\`, then \`payout.succeeded\`, \`payout.failed\` or
\`payout.refunded\` callbacks. A paid collection can be **refunded**, fully or in parts
(\`POST /gateway/v1/collections/{trade_no}/refunds\`), then \`refund.succeeded\` or \`refund.failed\` (see
Refunds below).

- **Amounts** are decimal strings in your merchant currency, never numbers: \`"100.00"\`, \`"25000"\`
  (see Amounts below).
- **Times** are ISO 8601 in UTC: \`"2026-01-01T00:05:00.000Z"\`.
- **Order numbers**: \`trade_no\` is Paydesk's; \`out_trade_no\` is yours and unique among your orders.
- **Channels**: an order that names no \`channel\` goes to the channels Paydesk routes your orders to (by
  priority and share, skipping one that is failing; an order the provider never received moves on to the
  next one under the same \`trade_no\`); naming \`channel\` uses that one. The answer's \`channel\` says which.
- This reference is also available as an OpenAPI 3.1 document at \`/gateway/openapi.json\`.

## Base URL

Every path in this reference starts with \`/gateway/v1/\` and is relative to the address of your
Paydesk server, for example \`https://pay.example.com/gateway/v1/collections\`. On a local demo server
(\`npm start\`) that is \`${EXAMPLE_PLACEHOLDERS.BASE_URL}\`, whose demo merchant \`${EXAMPLE_PLACEHOLDERS.MERCHANT_NO}\` has an
open **sandbox** channel in test mode: with its test key, a \`pay_url\` opens a test checkout page with Pay
and Fail buttons, so the whole flow, callbacks included, runs without real money.

## Live and test mode

Every merchant has two modes, as Stripe has them, and nothing crosses between them:

- **Two keys.** The console's **Access key** page has a **test** access key (it starts with \`test_\`) and a
  **live** access key (\`live_\`), each with its own secret key and its own webhook secret, and each mode has
  its own notify URL. A key in a configuration file says which mode it is.
- **The key decides the mode.** Every object a call creates is of its key's mode, and every read finds
  only objects of that mode: a test key asking for a live order (or a live key for a test one) gets
  **404**, exactly as for an order that does not exist. There is no mode parameter to send.
- **\`livemode\`** is on every object the gateway answers and every callback carries: \`true\` for live,
  \`false\` for test. Check it before you ship goods.
- **Test money.** Test mode has its own balance, which starts with test funds (more can be added on the
  console's **Settings > Test data** page), and its own channels: the **sandbox**, which serves test mode
  only and whose pay page lets you pay, fail or let an order expire. Test payouts are paid by the sandbox
  from the test balance. Test orders never settle into live money.
- **Live mode** needs a live channel that Paydesk opens for you; until then a live key's collection or
  payout answers 422 \`channel_unavailable\`. Top-ups and withdrawals are live only.

The examples in this reference use a test key (\`${EXAMPLE_PLACEHOLDERS.ACCESS_KEY}\`): build and test your
integration in test mode, then swap in the live access key, its secret key and its webhook secret (see the
Go live checklist).

## Authentication

Every request carries five headers. Your merchant number, access key, secret key and webhook secret are on
the console's **Settings > Access key** page, one set per mode (revealing the secret key asks for your
payment password and authenticator code). The client libraries below send these headers for you.

- \`X-Merchant-No\`: Your merchant number, e.g. \`M100001\` (the same in both modes).
- \`X-Access-Key\`: Your access key (the public half): a \`test_\` or a \`live_\` key, which decides the mode.
- \`X-Timestamp\`: The current time in **unix seconds**; refused when more than **300 seconds** away from Paydesk's clock.
- \`X-Nonce\`: A fresh random string of **16 to 64** characters from \`A-Z a-z 0-9 _ -\`; refused if it was already used by your account in the last **10 minutes**. Use a new one for every request, retries included.
- \`X-Signature\`: The signature below, as **lowercase hex**.

Requests with a body also send \`Content-Type: application/json\`.

**The signature** is the HMAC-SHA256, keyed with your **secret key** (its UTF-8 bytes), of these
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

**Worked example**, to check your implementation: with the secret key \`${w.secret}\`, the request
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
| 409 \`out_refund_no_taken\` | This \`out_refund_no\` is already used by one of your refunds; the answer carries its \`refund_no\`. |
| 409 \`invalid_state\` | A refund of a collection that is not \`paid\`. |
| 409 \`conflict\` | A payout or refund with the same \`Idempotency-Key\` is still being processed. |
| 415 \`unsupported_media_type\` | The request has a body that is not \`Content-Type: application/json\` (a form, plain text, ...); nothing was checked or spent. |
| 422 \`validation_failed\` | A field is missing or malformed; \`errors\` names each field: \`{"errors": {"amount": ["..."]}}\`. |
| 422 \`amount_out_of_range\` | The amount is outside the channel's minimum and maximum. |
| 422 \`channel_unavailable\` | You have no open channel for this kind of order (or not the \`channel\` you named). |
| 422 \`insufficient_funds\` | A payout or refund larger than your available balance; nothing was written. |
| 422 \`refund_exceeds_amount\` | The refund is more than what is left of the collection (its amount less its refunds in processing or succeeded). |
| 422 \`limit_exceeded\` | A limit set on your account refuses the order; \`limit\` names it (\`per_order_min\`, \`per_order_max\`, \`daily_amount\`, \`daily_count\` in your time zone's day, \`payee_daily_count\`); nothing was written. |
| 422 \`blocked\` | The payee account, or the collection's \`payer_ip\`, is on your account's block list; \`list\` names it; nothing was written. |
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

**Refund** \`status\`: \`processing\` -> \`succeeded\` | \`failed\`. A failed refund gives its amount back
to your available balance and to what the collection can still refund.

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

\`data\` is the object exactly as the query endpoints answer it (a Collection, a Payout or a Refund).

**Event types**

- \`collection.paid\`: The payer paid.
- \`collection.closed\`: The collection expired unpaid.
- \`collection.failed\`: The payment failed.
- \`payout.succeeded\`: The payout reached the payee.
- \`payout.failed\`: The payout failed; \`failure_reason\` says why.
- \`payout.refunded\`: The bank returned a successful payout; the amount is back in your available balance.
- \`refund.succeeded\`: The refund reached the payer.
- \`refund.failed\`: The refund failed; \`failure_reason\` says why, and the amount is back in your available balance.

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
- Any other answer, a timeout or a connection error is retried with backoff and some jitter, at about
  ${CALLBACK_RETRY_DELAYS.join(', ')} after the first attempt (3 days in all); after that last retry the
  event is given up. Every attempt is logged; the console shows the log and can send the latest callback
  again. Events not delivered stay listed for 30 days in the console (Settings > Webhook deliveries),
  which resends them one by one or in bulk (by type and time range) under the same \`webhook-id\`.
- Retries carry the same \`webhook-id\` and body: record handled ids (a unique index) and answer 2xx
  to a duplicate without handling it twice. Callbacks for different orders may arrive in any order; when
  in doubt, query the order.
- The notify URL must be \`http\` or \`https\` and, in production, reachable on a public address.

## Refunds

A \`paid\` collection can be refunded in full or in several parts, as long as their sum stays within its
amount. The refund is taken from your **available balance** when you create it (into locked) and leaves
when the channel confirms it; a failed refund comes back. The collection's fee is not returned.

\`\`\`
POST /gateway/v1/collections/C2026010100000001/refunds
Idempotency-Key: 5f1c2e9a-refund-1
{"out_refund_no": "REFUND-1001", "amount": "30.00", "reason": "One item out of stock"}
\`\`\`

answers \`201\`:

\`\`\`json
{
  "data": {
    "refund_no": "R2026010100100000123456",
    "out_refund_no": "REFUND-1001",
    "trade_no": "C2026010100000001",
    "status": "processing",
    "amount": "30.00",
    "currency": "CNY",
    "reason": "One item out of stock",
    "created_at": "2026-01-01T01:00:00.000Z",
    "finished_at": null,
    "failure_reason": null,
    "livemode": true
  }
}
\`\`\`

- \`out_refund_no\` is yours and unique among your refunds: a repeat answers 409 \`out_refund_no_taken\`
  with the existing \`refund_no\`. The \`Idempotency-Key\` header works as for payouts.
- Query a refund with \`GET /gateway/v1/refunds/{refund_no}\` or \`GET /gateway/v1/refunds?out_refund_no=\`.
- How long it takes depends on the channel: the sandbox finishes it after its delay (an amount ending in
  \`.13\` fails, to try your failure path); a bank transfer is paid back by Paydesk's staff; the order's
  channel may also refuse refunds (422 \`channel_unavailable\`).

## Examples: create a collection

Each program creates the collection \`ORDER-1001\` for \`100.00\` with a signed
\`POST /gateway/v1/collections\` and prints the answer: \`201\` with \`{"data": {...}}\`, whose
\`pay_url\` is where you send the payer. Replace the values at the top (\`BASE_URL\`, \`MERCHANT_NO\`,
\`ACCESS_KEY\`, \`SECRET_KEY\`) with yours. Each builds the body once and hashes and sends those same bytes.

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

## Client libraries

Two clients that sign every request, retry safely and verify callbacks, so you write none of the above
yourself. Both come with the Paydesk repository and are tested against a running server in its test suite.

### Node.js: @paydesk/node-client

TypeScript types generated from this reference's OpenAPI document (\`/gateway/openapi.json\`), no
dependencies beyond Node.js (20 or later). Build the package from the repository and install the file:

\`\`\`bash
# in the Paydesk repository
cd packages/node-client && npm pack          # writes paydesk-node-client-1.0.0.tgz
# in your project
npm install /path/to/paydesk-node-client-1.0.0.tgz
\`\`\`

- \`new Paydesk({ baseUrl, merchantNo, accessKey, secretKey })\`; a \`test_\` access key works in test mode.
- \`collections.create(params)\`, \`collections.get(trade_no)\`, \`collections.getByOutTradeNo(out_trade_no)\`;
  \`refunds.create(trade_no, params, { idempotencyKey? })\`, \`refunds.get(refund_no)\`,
  \`refunds.getByOutRefundNo(out_refund_no)\`; \`payouts.create(params, { idempotencyKey? })\`,
  \`payouts.get(trade_no)\`, \`payouts.getByOutTradeNo(out_trade_no)\`; \`balance.get()\`. Each answers the
  object (\`Collection\`, \`Refund\`, \`Payout\`, \`Balance\`), with its answer's status, headers and
  \`replayed\` (\`Idempotent-Replayed\`) in \`lastResponse\`.
- **Retries**: a network error, a timeout, 429 (after \`Retry-After\`) and 5xx are retried up to 3 times with
  backoff and jitter, each attempt with a new nonce; another 4xx never is. A payout or a refund is sent with
  an \`Idempotency-Key\` (yours, or a generated one) that **every retry of the call reuses**, so a lost answer
  never pays twice. A collection's retry that answers 409 \`out_trade_no_taken\` means the first attempt went
  through: \`error.trade_no\` is the order.
- **Errors** are typed: \`PaydeskError\` with \`status\`, \`code\` and \`message\` (and \`requestId\`), as
  \`PaydeskAuthenticationError\` (401), \`PaydeskPermissionError\` (403), \`PaydeskNotFoundError\` (404),
  \`PaydeskConflictError\` (409, with \`trade_no\` or \`refund_no\`), \`PaydeskInvalidRequestError\` (422, with
  \`errors\`, \`limit\`, \`list\`), \`PaydeskRateLimitError\` (429), \`PaydeskServerError\` (5xx) and
  \`PaydeskConnectionError\` (no answer).
- **Callbacks**: \`Paydesk.webhooks.verify(rawBody, headers, webhookSecret)\` checks a callback as Standard
  Webhooks says (every \`v1,\` signature of the header, compared in constant time; the timestamp within 5
  minutes) and answers the typed event, or throws \`PaydeskWebhookVerificationError\`.

A test order from start to end (create, pay on the sandbox page, verify the callback, refund part of it,
verify that callback):

${fence('js', NODE_CLIENT_EXAMPLE)}

### Python: paydesk.py

One file, Python 3.8 or later, standard library only (\`urllib\`, \`hmac\`, \`hashlib\`, \`json\`,
\`base64\`): save it as \`paydesk.py\` next to your code (it is \`packages/python-client/paydesk.py\` in the
repository). The same surface: \`Paydesk(base_url, merchant_no, access_key, secret_key)\` with
\`collections\`, \`payouts\`, \`refunds\` (\`get_by_out_trade_no\`, \`get_by_out_refund_no\`) and
\`balance.get()\`, the same retries with one \`idempotency_key\` per payout or refund, \`PaydeskError\`
(\`status\`, \`code\`, \`message\`, \`trade_no\`), and \`verify_webhook(raw_body, headers, webhook_secret)\`.

\`\`\`python
from paydesk import Paydesk, PaydeskError, verify_webhook

paydesk = Paydesk(base_url=BASE_URL, merchant_no=MERCHANT_NO, access_key=ACCESS_KEY, secret_key=SECRET_KEY)
order = paydesk.collections.create({'out_trade_no': 'ORDER-1001', 'amount': '100.00'})
refund = paydesk.refunds.create(order['trade_no'], {'out_refund_no': 'REFUND-1001', 'amount': '30.00'})
payout = paydesk.payouts.create({...}, idempotency_key='payout-ORDER-1001')

# in your callback handler (Flask: request.get_data(), request.headers)
event = verify_webhook(raw_body, headers, WEBHOOK_SECRET)  # raises WebhookVerificationError
\`\`\`

${fence('python', PYTHON_CLIENT_SOURCE)}

## Go live checklist

When your test orders work end to end:

1. **Live access key.** In live mode (the header's switch off), **Settings > Access key**: generate the
   live access key and reveal its secret key and webhook secret. Put them in your servers' configuration in
   place of the test ones (a \`live_\` key; the test ones keep working for test mode).
2. **A live channel.** Paydesk opens your live collection and payout channels; until then a live key's
   collection or payout answers 422 \`channel_unavailable\`. (The console opens in test mode while you have
   no live channel.)
3. **IP whitelist.** Your production servers' outgoing addresses on **Settings > IP whitelist** (shared by
   both modes); an empty whitelist refuses every call.
4. **Notify URL reachable.** The live notify URL (set with the live key) is a public \`https\` address that
   answers 2xx within 15 seconds; Paydesk does not call private or loopback addresses in production.
5. **Callback verification.** Verify every callback with the **live** webhook secret over the raw body,
   refuse what does not verify, deduplicate on \`webhook-id\`, and check \`livemode\` before you ship goods.
6. **Idempotency keys.** Send every payout and refund with an \`Idempotency-Key\` you keep with the order and
   retry with the same key (the clients do this); retry a collection with the same \`out_trade_no\`.
`;
