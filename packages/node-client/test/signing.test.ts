import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CALLBACK_WORKED_EXAMPLE,
  SIGNING_WORKED_EXAMPLE,
} from '../../../apps/server/src/modules/gateway/gateway-docs.ts';
import {
  Paydesk,
  PaydeskWebhookVerificationError,
  signRequest,
  signWebhook,
  stringToSign,
} from '../src/index.ts';

// Both clients against the reference's worked examples (the values /gateway/docs prints), so a client and
// the reference cannot drift apart. The flows against a running server: client-libraries.test.ts.

const w = SIGNING_WORKED_EXAMPLE;
const cb = CALLBACK_WORKED_EXAMPLE;
const pythonClientDir = path.resolve(import.meta.dirname, '../../python-client');
const HAS_PYTHON = spawnSync('python3', ['--version'], { stdio: 'ignore' }).error === undefined;

describe('the Node client signs as the reference says', () => {
  it('gives the worked example its signature', () => {
    const request = {
      method: w.method,
      pathWithQuery: w.pathWithQuery,
      timestamp: w.timestamp,
      nonce: w.nonce,
      body: w.body,
    };
    expect(stringToSign(request).split('\n')).toEqual([
      w.method,
      w.pathWithQuery,
      w.timestamp,
      w.nonce,
      w.bodySha256,
    ]);
    expect(signRequest(w.secret, request)).toBe(w.signature);
    expect(signRequest(w.secret, { ...request, body: Buffer.from(w.body) })).toBe(w.signature);
  });

  it('signs and verifies the worked callback, refusing a changed byte, an old timestamp and a bad header', () => {
    const parts = { id: cb.id, timestamp: cb.timestamp, body: cb.body };
    expect(signWebhook(cb.webhookSecret, parts)).toBe(cb.signature);
    const headers = {
      'webhook-id': cb.id,
      'webhook-timestamp': cb.timestamp,
      'webhook-signature': cb.signature,
    };
    const at = () => new Date(Number(cb.timestamp) * 1000 + 299_000);
    expect(Paydesk.webhooks.verify(cb.body, headers, cb.webhookSecret, { now: at })).toMatchObject({
      id: cb.id,
      type: 'collection.paid',
    });
    const refused = [
      () =>
        Paydesk.webhooks.verify(cb.body.replace('ORDER-1001', 'ORDER-1002'), headers, cb.webhookSecret, {
          now: at,
        }),
      () =>
        Paydesk.webhooks.verify(cb.body, headers, cb.webhookSecret, {
          now: () => new Date(Number(cb.timestamp) * 1000 + 301_000),
        }),
      () =>
        Paydesk.webhooks.verify(
          cb.body,
          { ...headers, 'webhook-signature': 'v2,' + cb.signature.slice(3) },
          cb.webhookSecret,
          { now: at },
        ),
      () =>
        Paydesk.webhooks.verify(cb.body, { ...headers, 'webhook-timestamp': 'soon' }, cb.webhookSecret, {
          now: at,
        }),
    ];
    for (const attempt of refused) expect(attempt).toThrow(PaydeskWebhookVerificationError);
  });
});

describe.skipIf(!HAS_PYTHON)('paydesk.py signs as the reference says', () => {
  it('gives the worked examples their signatures and verifies the callback', () => {
    const script = `
import json, sys
from paydesk import sign_request, sign_webhook, verify_webhook, WebhookVerificationError
w, cb = json.loads(sys.argv[1]), json.loads(sys.argv[2])
headers = {'Webhook-Id': cb['id'], 'Webhook-Timestamp': cb['timestamp'], 'Webhook-Signature': 'v1,bm9wZQ== ' + cb['signature']}
event = verify_webhook(cb['body'].encode(), headers, cb['webhookSecret'], now=int(cb['timestamp']) + 10)
try:
    verify_webhook(cb['body'] + ' ', headers, cb['webhookSecret'], now=int(cb['timestamp']))
    tampered = 'accepted'
except WebhookVerificationError:
    tampered = 'refused'
print(json.dumps({
    'signature': sign_request(w['secret'], w['method'], w['pathWithQuery'], w['timestamp'], w['nonce'], w['body']),
    'callback': sign_webhook(cb['webhookSecret'], cb['id'], cb['timestamp'], cb['body']),
    'event': event['type'],
    'tampered': tampered,
}))
`;
    const result = spawnSync('python3', ['-c', script, JSON.stringify(w), JSON.stringify(cb)], {
      env: { ...process.env, PYTHONPATH: pythonClientDir },
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      signature: w.signature,
      callback: cb.signature,
      event: 'collection.paid',
      tampered: 'refused',
    });
  });
});
