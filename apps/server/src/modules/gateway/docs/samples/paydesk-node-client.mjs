// paydesk-node-client.mjs: a test order from start to end with the Node client: create a collection,
// wait for the payer, receive and verify its callback, refund part of it, verify that callback too.
// npm install /path/to/paydesk-node-client-1.0.0.tgz, then: node paydesk-node-client.mjs
import { createServer } from 'node:http';
import { Paydesk } from '@paydesk/node-client';

const BASE_URL = 'http://localhost:8080'; // your Paydesk server
const MERCHANT_NO = 'M100001';
const ACCESS_KEY = 'test_YOUR_ACCESS_KEY';
const SECRET_KEY = 'YOUR_SECRET_KEY';
const WEBHOOK_SECRET = 'whsec_YOUR_WEBHOOK_SECRET';

const paydesk = new Paydesk({
  baseUrl: BASE_URL,
  merchantNo: MERCHANT_NO,
  accessKey: ACCESS_KEY,
  secretKey: SECRET_KEY,
});

// Your callback receiver. Here on this machine, which a local Paydesk (npm start) can reach; in
// production, your notify URL is a public https address (set it on the console's Access key page).
const events = [];
const receiver = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    try {
      // The raw body, as received: verify before parsing anything.
      const event = Paydesk.webhooks.verify(Buffer.concat(chunks), request.headers, WEBHOOK_SECRET);
      console.log(`callback ${event.type} ${event.data.trade_no} (verified)`);
      events.push(event);
      response.writeHead(204).end();
    } catch (error) {
      console.log(`callback refused: ${error.message}`);
      response.writeHead(401).end();
    }
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const notifyUrl = `http://127.0.0.1:${receiver.address().port}/paydesk/callbacks`;

async function callbackOf(type) {
  for (let waited = 0; waited < 600; waited++) {
    const event = events.find((e) => e.type === type);
    if (event) return event;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`No ${type} callback in 5 minutes.`);
}

const order = await paydesk.collections.create({
  out_trade_no: `ORDER-${Date.now()}`,
  amount: '100.00',
  notify_url: notifyUrl,
});
console.log(`created ${order.trade_no} (livemode: ${order.livemode})`);
console.log(`pay it: ${new URL(order.pay_url, BASE_URL)}`);

const paid = await callbackOf('collection.paid');
const refund = await paydesk.refunds.create(paid.data.trade_no, {
  out_refund_no: `REFUND-${Date.now()}`,
  amount: '30.00',
});
console.log(`refund ${refund.refund_no}: ${refund.status}`);
const refunded = await callbackOf('refund.succeeded');
console.log(`refunded ${refunded.data.amount} of ${paid.data.amount}`);
receiver.close();
