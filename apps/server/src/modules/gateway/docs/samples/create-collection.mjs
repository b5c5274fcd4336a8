// create-collection.mjs: create a collection, signed per the gateway rule.
// Node.js 18 or later, no dependencies: node create-collection.mjs
import { createHash, createHmac, randomBytes } from 'node:crypto';

const BASE_URL = 'http://localhost:8080'; // your Paydesk server
const MERCHANT_NO = 'M100001';
const ACCESS_KEY = 'test_YOUR_ACCESS_KEY';
const SECRET_KEY = 'YOUR_SECRET_KEY';

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
  const signature = createHmac('sha256', Buffer.from(SECRET_KEY, 'utf8'))
    .update(stringToSign, 'utf8')
    .digest('hex');

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
