import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import {
  createGatewayMerchant,
  freshNonce,
  gatewayCall,
  type GatewayMerchant,
  openPayoutChannel,
  fundMerchant,
} from '../factories/gateway.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// DESIGN 9 (turn 3): a gateway call whose body is not application/json answers 415 before its signature
// is checked, so nothing is spent (nonce, Idempotency-Key) and nothing is created. The signature covers
// the body's bytes; a form's bytes were never hashed (the call was checked against an empty body).

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx?.close());

const CN_PAYEE = {
  account_type: 'individual',
  bank_code: 'ICBC',
  bank_name: 'ICBC',
  branch_name: 'Shanghai',
  payee_name: 'Zhang San',
  account_no: '6222020200112233445',
};

/** A merchant with a collection channel, a payout channel and 1,000.00 to pay out. */
async function merchant(): Promise<GatewayMerchant> {
  const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey);
  await openPayoutChannel(ctx.database.db, m.merchant.id);
  await fundMerchant(ctx.database.db, m.merchant.id, 100_000n);
  return m;
}

const count = async (table: 'collections' | 'payouts', m: GatewayMerchant) =>
  (
    await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from ${sql.identifier(table)} where merchant_id = ${m.merchant.id}`,
    )
  )[0].n;

const BOUNDARY = '----paydesk-test-boundary';
const multipart = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(
      ([name, value]) =>
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('') + `--${BOUNDARY}--\r\n`;
const urlencoded = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

const ROUTES = [
  {
    url: '/gateway/v1/collections',
    table: 'collections',
    fields: { out_trade_no: 'FORM-1', amount: '100.00', payer_name: 'Li Lei' },
  },
  {
    url: '/gateway/v1/payouts',
    table: 'payouts',
    fields: { out_trade_no: 'FORM-1', amount: '100.00', ...CN_PAYEE },
  },
] as const;

const FORMS = [
  {
    kind: 'multipart/form-data',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    encode: multipart,
  },
  {
    kind: 'application/x-www-form-urlencoded',
    contentType: 'application/x-www-form-urlencoded',
    encode: urlencoded,
  },
  { kind: 'text/plain', contentType: 'text/plain', encode: (f: Record<string, string>) => JSON.stringify(f) },
];

describe('a gateway call with a body that is not JSON', () => {
  for (const route of ROUTES) {
    for (const form of FORMS) {
      it(`POST ${route.url} as ${form.kind} answers 415 with its code and creates nothing`, async () => {
        const m = await merchant();
        const payload = form.encode(route.fields);
        // Signed over the bytes sent (an honest client) and over an empty body (what used to pass).
        let made = 0;
        for (const signedBody of [payload, '']) {
          const nonce = freshNonce();
          const refused = await gatewayCall(ctx.app, m, 'POST', route.url, {
            payload,
            signedBody,
            nonce,
            headers: { 'content-type': form.contentType, 'idempotency-key': `form-${nonce}` },
          });
          expect(refused.statusCode, refused.body).toBe(415);
          expect(refused.json()).toMatchObject({
            code: 'unsupported_media_type',
            message: expect.stringContaining('application/json'),
          });
          expect(await count(route.table, m)).toBe(made);

          // Nothing was spent: the same nonce and Idempotency-Key make the order as JSON.
          const json = await gatewayCall(ctx.app, m, 'POST', route.url, {
            body: { ...route.fields, out_trade_no: `JSON-${nonce}` },
            nonce,
            headers: { 'idempotency-key': `form-${nonce}` },
          });
          expect(json.statusCode, json.body).toBe(201);
          expect(json.headers['idempotent-replayed']).toBeUndefined();
          made += 1;
        }
        expect(await count(route.table, m)).toBe(2);
      });
    }

    it(`POST ${route.url} with a body and no content type answers 415`, async () => {
      const m = await merchant();
      const payload = JSON.stringify(route.fields);
      const refused = await gatewayCall(ctx.app, m, 'POST', route.url, {
        payload,
        headers: { 'content-type': undefined },
      });
      expect(refused.statusCode, refused.body).toBe(415);
      expect(refused.json().code).toBe('unsupported_media_type');
      expect(await count(route.table, m)).toBe(0);
    });

    it(`POST ${route.url} as application/json; charset=utf-8 still works`, async () => {
      const m = await merchant();
      const made = await gatewayCall(ctx.app, m, 'POST', route.url, {
        body: route.fields,
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(made.statusCode, made.body).toBe(201);
      expect(await count(route.table, m)).toBe(1);
    });
  }

  it('a GET without a body stays fine, whatever content type it names', async () => {
    const m = await merchant();
    const plain = await gatewayCall(ctx.app, m, 'GET', '/gateway/v1/balance');
    expect(plain.statusCode, plain.body).toBe(200);
    const named = await gatewayCall(ctx.app, m, 'GET', '/gateway/v1/balance', {
      headers: { 'content-type': 'text/plain' },
    });
    expect(named.statusCode, named.body).toBe(200);
  });
});
