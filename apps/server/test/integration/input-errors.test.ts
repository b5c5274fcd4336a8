import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { queryRows } from '../../src/db/client.ts';
import { ensureLocalOperatorToken } from '../../src/modules/ops/index.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';

// Inputs the bad-input battery (bad-input.test.ts) found answering 500, one test per root cause:
// each now answers a 4xx with a message and writes nothing.

let ctx: TestContext;
let db: Db;
let operatorToken: string;
let client: TestClient;

/** Money and merchants: a refused request must leave them as they were. */
async function moneyState(): Promise<string> {
  const [row] = await queryRows<{ state: string }>(
    db,
    sql`select concat_ws('|',
      (select count(*) || ':' || coalesce(sum(available_minor), 0) || ':' || coalesce(sum(locked_minor), 0) from balances),
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
  const { users } = await createMerchant(db, { roles: ['ROOT'] });
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
