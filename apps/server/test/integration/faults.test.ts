import { sql } from 'drizzle-orm';
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { type Db, queryRows } from '../../src/db/client.ts';
import { signRequest } from '../../src/lib/gateway-signature.ts';
import { createLedger, verifyLedger } from '../../src/modules/ledger/index.ts';
import {
  createGatewayMerchant,
  freshNonce,
  type GatewayMerchant,
  openPayoutChannel,
} from '../factories/gateway.ts';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import {
  createTestDatabase,
  TEST_APP_KEY,
  testDatabaseKind,
  type TestDatabase,
} from '../helpers/test-app.ts';

// DESIGN 9: "a kill -9 at any moment loses nothing that was committed and leaves nothing half done, and a
// retried request with the same idempotency key returns the committed result." The real server process
// on PostgreSQL takes a burst of gateway payouts, each with its own Idempotency-Key, and is killed with
// SIGKILL in the middle of it; a new process on the same database then gets every request again.
// (PostgreSQL only: the embedded database lives inside the killed process.)

const PAYOUTS = 120;
const CLIENTS = 16;
const KILL_AFTER_ANSWERS = 40;
const appKey = Buffer.from(TEST_APP_KEY.replace(/^base64:/, ''), 'base64');

type Answer = { status: number; replayed: boolean; body: { data?: { trade_no: string }; code?: string } };

/** One signed POST /gateway/v1/payouts over real HTTP; null when the connection died without an answer. */
function sendPayout(
  port: number,
  m: GatewayMerchant,
  agent: Agent,
  index: number,
  tag: string,
): Promise<Answer | null> {
  const body = JSON.stringify({
    out_trade_no: `${tag}-${index}`,
    amount: '10.00',
    account_type: 'individual',
    bank_code: 'ICBC',
    bank_name: '中国工商银行',
    payee_name: '张三',
    account_no: '6222020200112233445',
  });
  const path = '/gateway/v1/payouts';
  const timestamp = Math.floor(Date.now() / 1000);
  const nonce = freshNonce();
  const headers = {
    'content-type': 'application/json',
    'x-merchant-no': m.merchant.no,
    'x-access-key': m.accessKey,
    'x-timestamp': String(timestamp),
    'x-nonce': nonce,
    'x-signature': signRequest(m.secret, { method: 'POST', pathWithQuery: path, timestamp, nonce, body }),
    'idempotency-key': `${tag}-key-${index}`,
  };
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers, agent }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          replayed: res.headers['idempotent-replayed'] === 'true',
          body: JSON.parse(text) as Answer['body'],
        }),
      );
      res.on('error', () => resolve(null));
    });
    req.on('error', () => resolve(null));
    req.end(body);
  });
}

/** Sends payouts 0..PAYOUTS-1 from CLIENTS clients at once; `onAnswer` sees each answer as it comes. */
async function burst(
  port: number,
  m: GatewayMerchant,
  tag: string,
  onAnswer: (count: number) => void = () => {},
) {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const answers: (Answer | null)[] = new Array(PAYOUTS).fill(null);
  let next = 0;
  let answered = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < PAYOUTS) {
        const index = next++;
        answers[index] = await sendPayout(port, m, agent, index, tag);
        if (answers[index]) onAnswer(++answered);
      }
    }),
  );
  agent.destroy();
  return answers;
}

/** A merchant with a sandbox payout channel (1% + 0.50) and 100,000.00 in. */
async function payer(db: Db): Promise<GatewayMerchant> {
  const m = await createGatewayMerchant(db, appKey, { channel: false });
  await openPayoutChannel(db, m.merchant.id);
  await db.transaction((tx) =>
    createLedger().post(tx, {
      merchantId: m.merchant.id,
      type: 'transfer_in',
      amountMinor: 10_000_000n,
      refType: 'test',
      refId: String(m.merchant.id),
      idempotencyKey: `test:fund:${m.merchant.id}`,
    }),
  );
  return m;
}

let database: TestDatabase | undefined;
let server: ServerProcess | undefined;
afterAll(async () => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
  await database?.drop();
});

describe.runIf(testDatabaseKind() === 'postgres')('kill -9 during a burst of gateway payouts', () => {
  it('leaves each payout whole or absent, and a retry with its Idempotency-Key answers what committed', async () => {
    database = await createTestDatabase();
    const db = database.db;
    const m = await payer(db);
    // Production with the demo's sandbox (PAYDESK_DEMO): the payouts go to a sandbox payout channel, which
    // takes no new payout in production without the demo.
    const env = { JOBS: 'off', PAYDESK_DEMO: 'true' };

    server = await startServerProcess({ databaseUrl: database.url, env });
    const victim = server;
    const first = await burst(victim.port, m, 'CRASH', (count) => {
      if (count === KILL_AFTER_ANSWERS) victim.child.kill('SIGKILL');
    });
    await victim.exited;
    const answeredFirst = first.filter((answer) => answer !== null);
    expect(answeredFirst.length).toBeGreaterThanOrEqual(KILL_AFTER_ANSWERS);
    expect(answeredFirst.length).toBeLessThan(PAYOUTS);
    for (const answer of answeredFirst) expect(answer.status).toBe(201);

    server = await startServerProcess({ databaseUrl: database.url, env });
    const retry = await burst(server.port, m, 'CRASH');
    server.child.kill('SIGTERM');
    await server.exited;

    // Every request now has its payout, exactly once; the ones answered before the kill replay that answer.
    for (const [index, answer] of retry.entries()) {
      expect(answer?.status, `request ${index}: ${JSON.stringify(answer?.body)}`).toBe(201);
      const before = first[index];
      if (before) {
        expect(answer!.replayed).toBe(true);
        expect(answer!.body.data!.trade_no).toBe(before.body.data!.trade_no);
      }
    }
    const [counts] = await queryRows<{ payouts: number; orders: number; holds: number; keys: number }>(
      db,
      sql`select
        (select count(*)::int from payouts where merchant_id = ${m.merchant.id}) as payouts,
        (select count(distinct out_trade_no)::int from payouts where merchant_id = ${m.merchant.id}) as orders,
        (select count(*)::int from holds h join payouts p on h.idempotency_key = 'payout:' || p.id || ':deduct'
          where p.merchant_id = ${m.merchant.id}) as holds,
        (select count(*)::int from idempotency_keys where merchant_id = ${m.merchant.id}) as keys`,
    );
    expect(counts).toEqual({ payouts: PAYOUTS, orders: PAYOUTS, holds: PAYOUTS, keys: PAYOUTS });
    const report = await verifyLedger(db);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('on SIGTERM in the middle of a burst, finishes what it took and takes nothing half', async () => {
    database ??= await createTestDatabase();
    const db = database.db;
    const m = await payer(db);
    server = await startServerProcess({
      databaseUrl: database.url,
      env: { JOBS: 'off', PAYDESK_DEMO: 'true' },
    });
    const stopping = server;
    const answers = await burst(stopping.port, m, 'TERM', (count) => {
      if (count === KILL_AFTER_ANSWERS) stopping.child.kill('SIGTERM');
    });
    expect(await stopping.exited).toBe(0);
    const statuses = new Set(answers.map((answer) => answer?.status ?? 'not taken'));
    for (const status of statuses) expect([201, 503, 'not taken']).toContain(status);
    // Every payout answered 201 exists with its hold; nothing else was created.
    const created = answers
      .filter((answer) => answer?.status === 201)
      .map((answer) => answer!.body.data!.trade_no);
    expect(created.length).toBeGreaterThanOrEqual(KILL_AFTER_ANSWERS);
    const rows = await queryRows<{ trade_no: string; held: boolean }>(
      db,
      sql`select p.trade_no, exists (select 1 from holds h where h.idempotency_key = 'payout:' || p.id || ':deduct') as held
          from payouts p where p.merchant_id = ${m.merchant.id}`,
    );
    expect(rows.map((row) => row.trade_no).sort()).toEqual([...created].sort());
    expect(rows.every((row) => row.held)).toBe(true);
    expect((await verifyLedger(db)).problems).toEqual([]);
  });
});
