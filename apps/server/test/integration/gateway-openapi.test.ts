import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from '@readme/openapi-parser';
import { eq } from 'drizzle-orm';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_EVENT_TYPES } from '@paydesk/shared/collections/collections.schemas.ts';
import { callbackEvents } from '../../src/db/schema/index.ts';
import {
  EXAMPLE_BALANCE,
  EXAMPLE_COLLECTION,
  EXAMPLE_PAYOUT,
  EXAMPLE_REFUND,
  GATEWAY_OPERATIONS,
  eventSchemaId,
} from '../../src/modules/gateway/gateway-openapi.ts';
import {
  CN_PAYEE,
  createGatewayMerchant,
  fundMerchant,
  gatewayCall,
  type GatewayMerchant,
  openPayoutChannel,
  payOnSandboxPage,
} from '../factories/gateway.ts';
import { createAnswerValidator } from '../helpers/openapi-conformance.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// The gateway's OpenAPI document (issue 39, DESIGN 6): valid OpenAPI 3.1 by a maintained validator,
// complete (signing, every answer, named schemas, callbacks), its examples the server's real answers, and
// a client generated from it (openapi-typescript) compiles. Every other gateway answer of the suite is
// checked against it by createTestApp (helpers/openapi-conformance.ts).

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let ctx: TestContext;
let document: Json;
let m: GatewayMerchant;
const clock = new Date(Math.floor(Date.now() / 1000) * 1000);
const now = () => clock;

const call = (
  method: 'GET' | 'POST',
  url: string,
  options: Parameters<typeof gatewayCall>[4] = {},
  merchant: GatewayMerchant = m,
) => gatewayCall(ctx.app, merchant, method, url, { now, ...options });

beforeAll(async () => {
  ctx = await createTestApp({}, { now });
  document = (await ctx.app.inject({ method: 'GET', url: '/gateway/openapi.json' })).json();
  // Test mode: the sandbox (whose pay page this file uses) serves test mode only (DESIGN 12).
  m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
    notifyUrl: 'http://127.0.0.1:9/hooks',
    mode: 'test',
  });
});

afterAll(async () => {
  await ctx?.close();
});

const operations = () =>
  Object.entries(document.paths as Json).flatMap(([route, item]) =>
    Object.entries(item as Json).map(([method, operation]) => ({
      route,
      method,
      operation: operation as Json,
    })),
  );

/** The documented example of `code` for this operation and status. */
const exampleOf = (key: string, status: number, code: string) => {
  const [method, route] = key.split(' ');
  const examples = document.paths[route][method.toLowerCase()].responses[status].content['application/json']
    .examples as Json;
  const found = Object.values(examples).find((example) => example.value.code === code);
  if (!found) throw new Error(`${key} ${status}: no example of ${code}`);
  return found.value as Json;
};

/** The real answer's body is the example's, but for the request id. */
const expectAnswerLikeExample = (body: Json, example: Json) => {
  expect(body.request_id).toEqual(expect.any(String));
  expect({ ...body, request_id: undefined }).toEqual({ ...example, request_id: undefined });
};

describe('/gateway/openapi.json', () => {
  it('is valid OpenAPI 3.1 (@readme/openapi-parser)', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('names the server the reader reached when PUBLIC_URL is not set', async () => {
    expect(document.servers).toEqual([{ url: 'http://localhost:80', description: 'This Paydesk server' }]);
    const elsewhere = await ctx.app.inject({
      method: 'GET',
      url: '/gateway/openapi.json',
      headers: { host: 'pay.example.com' },
    });
    expect(elsewhere.json().servers[0].url).toBe('http://pay.example.com');
  });

  it('signs every operation with the five documented signing headers', () => {
    const schemes = document.components.securitySchemes as Json;
    expect(Object.values(schemes).map((scheme) => [scheme.type, scheme.in, scheme.name])).toEqual([
      ['apiKey', 'header', 'X-Merchant-No'],
      ['apiKey', 'header', 'X-Access-Key'],
      ['apiKey', 'header', 'X-Timestamp'],
      ['apiKey', 'header', 'X-Nonce'],
      ['apiKey', 'header', 'X-Signature'],
    ]);
    for (const scheme of Object.values(schemes)) expect(scheme.description.length).toBeGreaterThan(20);
    expect(operations()).toHaveLength(10);
    for (const { operation } of operations()) {
      expect(operation.security).toEqual([
        { MerchantNo: [], AccessKey: [], Timestamp: [], Nonce: [], Signature: [] },
      ]);
    }
  });

  it('documents every answer of every operation, each 401 and 422 code by name', () => {
    for (const { route, method, operation } of operations()) {
      const statuses = Object.keys(operation.responses);
      expect(statuses, `${method} ${route}`).toEqual(expect.arrayContaining(['401', '403', '415', '429']));
      expect(statuses).toContain(method === 'post' ? '201' : '200');
      expect(
        operation.responses['401'].content['application/json'].schema.allOf[1].properties.code.enum,
      ).toEqual([
        'signature_header_invalid',
        'signature_invalid',
        'timestamp_out_of_window',
        'nonce_reused',
        'unknown_key',
      ]);
      expect(operation.operationId).toMatch(/^[a-zA-Z]+$/);
    }
    const created = document.paths['/gateway/v1/collections'].post.responses;
    expect(created['422'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([
      'validation_failed',
      'amount_out_of_range',
      'channel_unavailable',
      'limit_exceeded',
      'blocked',
    ]);
    expect(created['409'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([
      'out_trade_no_taken',
    ]);
    expect(document.paths['/gateway/v1/collections/{trade_no}'].get.responses['404']).toBeDefined();
    expect(created['201'].content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/Collection',
    });
  });

  it('takes an Idempotency-Key where it applies, and says when an answer is a replay', () => {
    const idempotent = operations()
      .filter(({ operation }) => (operation.parameters ?? []).some((p: Json) => p.name === 'Idempotency-Key'))
      .map(({ method, route }) => `${method.toUpperCase()} ${route}`);
    expect(idempotent.sort()).toEqual([
      'POST /gateway/v1/collections/{trade_no}/refunds',
      'POST /gateway/v1/payouts',
    ]);
    expect(
      document.paths['/gateway/v1/payouts'].post.responses['201'].headers['Idempotent-Replayed'],
    ).toBeDefined();
  });

  it('names the objects, the error and every callback event as components, and the callbacks as webhooks', () => {
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'Collection',
        'Payout',
        'Refund',
        'Balance',
        'Error',
        'CreateCollectionInput',
        'CreatePayoutInput',
        'CreateRefundInput',
        ...CALLBACK_EVENT_TYPES.map(eventSchemaId),
      ]),
    );
    expect(Object.keys(document.webhooks)).toEqual([...CALLBACK_EVENT_TYPES]);
    for (const type of CALLBACK_EVENT_TYPES) {
      const hook = document.webhooks[type].post;
      expect(hook.parameters.map((p: Json) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
      expect(hook.requestBody.content['application/json'].schema).toEqual({
        $ref: `#/components/schemas/${eventSchemaId(type)}`,
      });
    }
    expect(document.components.schemas.Collection.properties.amount).toEqual({ type: 'string' });
  });

  it('gives examples that match their own schemas', () => {
    const validator = createAnswerValidator(document as never);
    const problems: string[] = [];
    for (const { route, method, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        const media = response.content?.['application/json'];
        if (!media) continue;
        const examples = media.examples
          ? Object.values(media.examples as Json).map((e) => e.value)
          : [media.example];
        expect(examples.length, `${method} ${route} ${status}`).toBeGreaterThan(0);
        for (const example of examples) {
          problems.push(...validator.checkSchema(`${method} ${route} ${status}`, media.schema, example));
        }
      }
    }
    for (const type of CALLBACK_EVENT_TYPES) {
      const media = document.webhooks[type].post.requestBody.content['application/json'];
      problems.push(...validator.checkCallback(type, media.example));
    }
    expect(problems).toEqual([]);
  });

  it('catches an answer that breaks the document (the check createTestApp runs on every file)', () => {
    const validator = createAnswerValidator(document as never);
    const answer = (status: number, body: unknown) => ({
      method: 'GET',
      route: '/gateway/v1/balance',
      status,
      body: JSON.stringify(body),
    });
    expect(validator.check(answer(200, { data: EXAMPLE_BALANCE }))).toEqual([]);
    expect(validator.check(answer(200, { data: { ...EXAMPLE_BALANCE, available: 1 } }))).not.toEqual([]);
    expect(validator.check(answer(200, { data: { ...EXAMPLE_BALANCE, extra: 'x' } }))).not.toEqual([]);
    expect(validator.check(answer(418, {}))[0]).toMatch(/not documented/);
    expect(validator.check(answer(401, { message: 'm', code: 'forbidden', request_id: 'r' }))).not.toEqual(
      [],
    );
  });

  it('generates TypeScript types (openapi-typescript) that a client compiles against', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'paydesk-openapi-types-'));
    writeFileSync(path.join(dir, 'gateway.ts'), astToString(await openapiTS(document as never)));
    writeFileSync(
      path.join(dir, 'client.ts'),
      `import type { components, paths, webhooks } from './gateway.ts';

type Created = paths['/gateway/v1/collections']['post']['responses'][201]['content']['application/json'];
type Refused = paths['/gateway/v1/collections']['post']['responses'][401]['content']['application/json'];
type Body = paths['/gateway/v1/collections']['post']['requestBody'];

export const created: Created = { data: ${JSON.stringify(EXAMPLE_COLLECTION)} };
export const refused: Refused = { message: 'm', code: 'signature_header_invalid', request_id: 'r' };
export const body: NonNullable<Body>['content']['application/json'] = { out_trade_no: 'ORDER-1', amount: '1.00' };
// @ts-expect-error an amount is a decimal string, never a number
export const numeric: components['schemas']['CreateCollectionInput'] = { out_trade_no: 'ORDER-1', amount: 1 };
// @ts-expect-error 401 has no such code
export const unknownCode: Refused = { message: 'm', code: 'no_such_code', request_id: 'r' };
export const payout: components['schemas']['Payout'] = ${JSON.stringify(EXAMPLE_PAYOUT)};
export const refund: components['schemas']['Refund'] = ${JSON.stringify(EXAMPLE_REFUND)};
export const balance: components['schemas']['Balance'] = ${JSON.stringify(EXAMPLE_BALANCE)};
type Paid = NonNullable<webhooks['collection.paid']['post']['requestBody']>['content']['application/json'];
export const paid = (event: Paid): string => event.data.trade_no;
export const signing: paths['/gateway/v1/balance']['get']['parameters'] = {};
`,
    );
    const tsc = fileURLToPath(new URL('../../../../node_modules/typescript/bin/tsc', import.meta.url));
    const result = spawnSync(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--allowImportingTsExtensions',
        '--skipLibCheck',
        path.join(dir, 'client.ts'),
      ],
      { encoding: 'utf8' },
    );
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('its examples are the real answers', () => {
  it('answers a collection of the documented shape, pay_url absolute on the origin called', async () => {
    const response = await call('POST', '/gateway/v1/collections', {
      body: { out_trade_no: 'OA-1', amount: '100.00' },
    });
    expect(response.statusCode).toBe(201);
    const { data } = response.json();
    expect(Object.keys(data)).toEqual(Object.keys(EXAMPLE_COLLECTION));
    expect(data.pay_url).toBe(`http://localhost:80/sandbox/pay/${data.trade_no}`);
    const viaProxy = await call('GET', `/gateway/v1/collections/${data.trade_no}`, {
      headers: { host: 'pay.example.com' },
    });
    expect(viaProxy.json().data.pay_url).toBe(`http://pay.example.com/sandbox/pay/${data.trade_no}`);
  });

  it('answers each signing header missing or malformed with signature_header_invalid, naming it', async () => {
    const cases: Array<[string, string | undefined, string]> = [
      ['x-merchant-no', undefined, 'The X-Merchant-No header is missing'],
      ['x-access-key', undefined, 'The X-Access-Key header is missing'],
      ['x-timestamp', undefined, 'The X-Timestamp header is missing'],
      ['x-timestamp', 'yesterday', 'The X-Timestamp header must be the unix time in seconds'],
      ['x-nonce', undefined, 'The X-Nonce header is missing'],
      ['x-nonce', 'short', 'The X-Nonce header must be 16 to 64 letters'],
      ['x-signature', undefined, 'The X-Signature header is missing'],
      ['x-signature', 'not-hex', 'The X-Signature header must be the lowercase hex HMAC-SHA256'],
    ];
    for (const [name, value, message] of cases) {
      const response = await call('GET', '/gateway/v1/balance', { headers: { [name]: value } });
      expect([name, value, response.statusCode, response.json().code]).toEqual([
        name,
        value,
        401,
        'signature_header_invalid',
      ]);
      expect(response.json().message).toContain(message);
    }
    const none = await ctx.app.inject({ method: 'GET', url: '/gateway/v1/balance' });
    expect(none.json()).toMatchObject({
      code: 'signature_header_invalid',
      message: expect.stringContaining('X-Merchant-No'),
    });
    const badNonce = await call('GET', '/gateway/v1/balance', { nonce: 'short' });
    expectAnswerLikeExample(
      badNonce.json(),
      exampleOf('GET /gateway/v1/balance', 401, 'signature_header_invalid'),
    );
  });

  it('answers the other refusals of the signature as documented', async () => {
    const key = 'GET /gateway/v1/balance';
    const wrong = await call('GET', '/gateway/v1/balance', { headers: { 'x-signature': 'f'.repeat(64) } });
    expectAnswerLikeExample(wrong.json(), exampleOf(key, 401, 'signature_invalid'));
    const late = await call('GET', '/gateway/v1/balance', {
      timestamp: Math.floor(clock.getTime() / 1000) - 301,
    });
    expectAnswerLikeExample(late.json(), exampleOf(key, 401, 'timestamp_out_of_window'));
    const unknown = await call('GET', '/gateway/v1/balance', { headers: { 'x-access-key': 'ak_nope' } });
    expectAnswerLikeExample(unknown.json(), exampleOf(key, 401, 'unknown_key'));
    const nonce = 'oa-nonce-0123456789';
    expect((await call('GET', '/gateway/v1/balance', { nonce })).statusCode).toBe(200);
    const again = await call('GET', '/gateway/v1/balance', { nonce });
    expectAnswerLikeExample(again.json(), exampleOf(key, 401, 'nonce_reused'));
    const stranger = await call('GET', '/gateway/v1/balance', { ip: '203.0.113.7' });
    expectAnswerLikeExample(stranger.json(), exampleOf(key, 403, 'ip_not_allowed'));
    const form = await call('POST', '/gateway/v1/collections', {
      payload: 'amount=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectAnswerLikeExample(
      form.json(),
      exampleOf('POST /gateway/v1/collections', 415, 'unsupported_media_type'),
    );
  });

  it('answers a number where an amount string goes with the catalogue sentence naming the field', async () => {
    const response = await call('POST', '/gateway/v1/collections', {
      body: { out_trade_no: 'OA-NUMBER', amount: 100 },
    });
    expect(response.statusCode).toBe(422);
    expectAnswerLikeExample(
      response.json(),
      exampleOf('POST /gateway/v1/collections', 422, 'validation_failed'),
    );
    expect(response.json().message).not.toMatch(/expected|received|Invalid input/);
  });

  it('answers 404, 409 and the lookups as documented', async () => {
    const missing = await call('GET', '/gateway/v1/collections/C2026010100000999');
    expectAnswerLikeExample(
      missing.json(),
      exampleOf('GET /gateway/v1/collections/{trade_no}', 404, 'not_found'),
    );
    const missingPayout = await call('GET', '/gateway/v1/payouts/P2026010100000999');
    expectAnswerLikeExample(
      missingPayout.json(),
      exampleOf('GET /gateway/v1/payouts/{trade_no}', 404, 'not_found'),
    );
    const missingRefund = await call('GET', '/gateway/v1/refunds/R2026010100000999');
    expectAnswerLikeExample(
      missingRefund.json(),
      exampleOf('GET /gateway/v1/refunds/{refund_no}', 404, 'not_found'),
    );
    await call('POST', '/gateway/v1/collections', { body: { out_trade_no: 'ORDER-1001', amount: '100.00' } });
    const taken = await call('POST', '/gateway/v1/collections', {
      body: { out_trade_no: 'ORDER-1001', amount: '100.00' },
    });
    expect(taken.statusCode).toBe(409);
    const example = exampleOf('POST /gateway/v1/collections', 409, 'out_trade_no_taken');
    expectAnswerLikeExample(taken.json(), { ...example, trade_no: taken.json().trade_no });
    expect(taken.json().trade_no).toMatch(/^C\d+/);
    const balance = await call('GET', '/gateway/v1/balance');
    expect(Object.keys(balance.json().data)).toEqual(Object.keys(EXAMPLE_BALANCE));
  });

  it('answers payouts and refunds with the documented objects, and callbacks carry the documented events', async () => {
    await openPayoutChannel(ctx.database.db, m.merchant.id);
    await fundMerchant(ctx.database.db, m.merchant.id, 1_000_000n);
    const payout = await call('POST', '/gateway/v1/payouts', {
      body: { out_trade_no: 'OA-PAYOUT-1', amount: '50.00', ...CN_PAYEE },
      headers: { 'idempotency-key': 'oa-payout-1' },
    });
    expect(payout.statusCode).toBe(201);
    expect(Object.keys(payout.json().data)).toEqual(Object.keys(EXAMPLE_PAYOUT));
    const replay = await call('POST', '/gateway/v1/payouts', {
      body: { out_trade_no: 'OA-PAYOUT-1', amount: '50.00', ...CN_PAYEE },
      headers: { 'idempotency-key': 'oa-payout-1' },
    });
    expect([replay.statusCode, replay.headers['idempotent-replayed']]).toEqual([201, 'true']);

    const order = (
      await call('POST', '/gateway/v1/collections', { body: { out_trade_no: 'OA-PAID', amount: '100.00' } })
    ).json().data;
    const notPaid = await call('POST', `/gateway/v1/collections/${order.trade_no}/refunds`, {
      body: { out_refund_no: 'OA-R0', amount: '1.00' },
    });
    expect([notPaid.statusCode, notPaid.json().code]).toEqual([409, 'invalid_state']);
    const pay = await payOnSandboxPage(ctx.app, new URL(order.pay_url).pathname);
    expect(pay.statusCode).toBe(303);
    const refund = await call('POST', `/gateway/v1/collections/${order.trade_no}/refunds`, {
      body: { out_refund_no: 'OA-R1', amount: '30.00', reason: 'One item out of stock' },
    });
    expect(refund.statusCode).toBe(201);
    expect(Object.keys(refund.json().data)).toEqual(Object.keys(EXAMPLE_REFUND));

    const validator = createAnswerValidator(document as never);
    const events = await ctx.database.db
      .select()
      .from(callbackEvents)
      .where(eq(callbackEvents.merchantId, m.merchant.id));
    const paid = events.find((event) => event.type === 'collection.paid');
    expect(paid).toBeDefined();
    expect(validator.checkCallback('collection.paid', JSON.parse(paid!.payload))).toEqual([]);
    expect(GATEWAY_OPERATIONS['POST /gateway/v1/payouts'].idempotent).toBe(true);
  });
});
