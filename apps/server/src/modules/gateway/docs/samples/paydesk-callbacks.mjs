// paydesk-callbacks.mjs: receive Paydesk callbacks and verify them (Standard Webhooks).
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
  const expected = createHmac('sha256', KEY)
    .update(id + '.' + timestamp + '.')
    .update(rawBody)
    .digest();
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
