import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { queryRows } from '../../src/db/client.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import { loginAs, TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';

// Inputs the bad-input battery (bad-input.test.ts) found answering 500, one test per root cause:
// each now answers a 4xx with a message and writes nothing.

let ctx: TestContext;
let db: Db;
let operatorToken: string;
let merchantNo: string;
let usdtMerchantNo: string;
let client: TestClient;
let rootEmail: string;

/** Money and merchants: a refused request must leave them as they were. */
async function moneyState(): Promise<string> {
  const [row] = await queryRows<{ state: string }>(
    db,
    sql`select concat_ws('|',
      (select count(*) || ':' || md5(coalesce(string_agg(code || '=' || balance_minor, ';' order by id), ''))
         from ledger_accounts),
      (select count(*) from postings),
      (select count(*) from fund_flows),
      (select count(*) from merchants)) as state`,
  );
  return row.state;
}

const ops = (url: string, payload: Record<string, unknown> | string, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${operatorToken}`, accept: 'application/json', ...headers },
    payload,
  });

beforeAll(async () => {
  ctx = await createTestApp();
  db = ctx.database.db;
  operatorToken = await ensureLocalOperatorToken(db, ctx.config.dataDir);
  const { merchant, users } = await createMerchant(db, { roles: ['ROOT'] });
  merchantNo = merchant.no;
  usdtMerchantNo = (await createMerchant(db, { roles: [], currency: 'USDT' })).merchant.no;
  rootEmail = users.ROOT.email;
  client = await loginAs(ctx.app, users.ROOT.email, TEST_PASSWORD);
});
afterAll(() => ctx.close());

describe('a multipart form that cannot be read', () => {
  it('answers 400 with a message, on the console API and the operator API (the parser error has no status)', async () => {
    const noBoundary = await client.post('/api/user/confirm-password', 'garbage', {
      'content-type': 'multipart/form-data',
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json().message).toBe('The form data could not be read.');

    const before = await moneyState();
    const truncated = await ops(
      '/ops/v1/funds/transfer-in',
      '--XYZ\r\nContent-Disposition: form-data; name="merchant"\r\n\r\nno end',
      { 'content-type': 'multipart/form-data; boundary=XYZ' },
    );
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().message).toBe('The form data could not be read.');
    expect(await moneyState()).toBe(before);
  });

  it('still reads a well-formed form', async () => {
    const boundary = 'PaydeskBoundary';
    const form = `--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\n${TEST_PASSWORD}\r\n--${boundary}--\r\n`;
    const response = await client.post('/api/user/confirm-password', form, {
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
    expect(response.statusCode).toBe(201);
  });
});

describe('text that PostgreSQL cannot store (NUL, an unpaired surrogate)', () => {
  it('answers 422 naming the field, in a body, a form, a query string or a path, and writes nothing', async () => {
    const before = await moneyState();
    const note = await ops('/ops/v1/funds/transfer-in', {
      merchant: merchantNo,
      amount: '1.00',
      reason: 'bad input test',
      note: 'a\u0000b',
    });
    expect(note.statusCode).toBe(422);
    expect(note.json().errors).toEqual({
      note: ['The note field contains a character that is not allowed (NUL or invalid Unicode).'],
    });

    // An unpaired surrogate reached the operator action's jsonb record.
    const name = await ops('/ops/v1/merchants', {
      name: 'Broken \ud800',
      currency: 'CNY',
      reason: 'bad input',
    });
    expect(name.statusCode).toBe(422);
    expect(Object.keys(name.json().errors)).toEqual(['name']);

    const login = await new TestClient(ctx.app).login(`${rootEmail}\u0000`, TEST_PASSWORD);
    expect(login.statusCode).toBe(422);
    expect(Object.keys(login.json().errors)).toEqual(['email']);

    const form = await client.post(
      '/api/user/confirm-password',
      '--B\r\nContent-Disposition: form-data; name="password"\r\n\r\nx\u0000y\r\n--B--\r\n',
      { 'content-type': 'multipart/form-data; boundary=B' },
    );
    expect(form.statusCode).toBe(422);
    expect(Object.keys(form.json().errors)).toEqual(['password']);

    const search = await client.get('/api/merchant/fund-flows?ref_no=%00');
    expect(search.statusCode).toBe(422);
    expect(Object.keys(search.json().errors)).toEqual(['ref_no']);

    const nested = await client.put('/api/user/profile-information', {
      name: 'x',
      email: 'a@b.co',
      list: [{ '\ud83d': 1 }],
    });
    expect(nested.statusCode).toBe(422);
    expect(Object.keys(nested.json().errors)).toEqual(['list.0']);

    expect(await moneyState()).toBe(before);
  });

  it('keeps well-formed text, emoji included', async () => {
    const emoji = await ops('/ops/v1/funds/transfer-in', {
      merchant: merchantNo,
      amount: '1.00',
      reason: 'bad input test',
      note: 'thanks 😀 谢谢',
    });
    expect(emoji.statusCode).toBe(201);
    expect(emoji.json().data.entry.note).toBe('thanks 😀 谢谢');
  });
});

describe('dates a time zone carries out of what the database holds', () => {
  it('answers 422 on the date filter before year 1970 or after 2999 (year 0 and 10000 were 500s)', async () => {
    for (const [query, field] of [
      ['start_time=0000-01-01', 'start_time'],
      ['start_time=1969-12-31', 'start_time'],
      ['end_time=9999-12-31%2023:59:59', 'end_time'],
      ['end_time=3000-01-01', 'end_time'],
    ]) {
      const response = await client.get(`/api/merchant/fund-flows?${query}`, { 'x-timezone': '-12:00' });
      expect(response.statusCode, query).toBe(422);
      expect(response.json().errors[field], query).toEqual(['Use a date between 1970-01-01 and 2999-12-31.']);
    }
  });

  it('takes the first and the last day in the furthest time zones', async () => {
    for (const zone of ['-12:00', '+14:00']) {
      const response = await client.get(
        '/api/merchant/fund-flows?start_time=1970-01-01&end_time=2999-12-31%2023:59:59',
        { 'x-timezone': zone },
      );
      expect(response.statusCode, zone).toBe(200);
    }
  });
});

describe('numbers beyond bigint', () => {
  const transferIn = (amount: string) =>
    ops('/ops/v1/funds/transfer-in', { merchant: usdtMerchantNo, amount, reason: 'bad input test' });

  it('answers 400 for one amount too large for minor units, and writes nothing', async () => {
    const before = await moneyState();
    const response = await transferIn('999999999999999.999999');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('A number in the request is too large.');
    expect(await moneyState()).toBe(before);
  });

  it('answers 400 for a credit the balance cannot hold, leaving the ledger whole', async () => {
    expect((await transferIn('9000000000000')).statusCode).toBe(201);
    const before = await moneyState();
    const overflow = await transferIn('9000000000000');
    expect(overflow.statusCode).toBe(400);
    expect(overflow.json().message).toBe('A number in the request is too large.');
    expect(await moneyState()).toBe(before);
    const verify = await ctx.app.inject({
      method: 'GET',
      url: `/ops/v1/ledger/verify?merchant=${usdtMerchantNo}`,
      headers: { authorization: `Bearer ${operatorToken}` },
    });
    expect(verify.json().data).toMatchObject({ ok: true, problems: [] });
  });
});

describe('a fund flow cursor that points past any row', () => {
  it('answers 422 errors.cursor (a time past year 9999 reached the database as a 500)', async () => {
    for (const raw of ['999999999999999.1', '253402300800000.1']) {
      const response = await client.get(
        `/api/merchant/fund-flows?cursor=${Buffer.from(raw).toString('base64url')}`,
      );
      expect(response.statusCode, raw).toBe(422);
      expect(response.json().errors, raw).toEqual({ cursor: ['The cursor is not valid.'] });
    }
  });

  it('still takes a cursor at any time up to year 9999', async () => {
    const raw = `${Date.UTC(9999, 0, 1)}.1`;
    const response = await client.get(
      `/api/merchant/fund-flows?cursor=${Buffer.from(raw).toString('base64url')}`,
    );
    expect(response.statusCode).toBe(200);
  });
});
