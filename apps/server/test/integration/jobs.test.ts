import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { callbacksRepository } from '../../src/modules/callbacks/callbacks.repository.ts';
import { createGatewayMerchant, gatewayCall, payOnSandboxPage } from '../factories/gateway.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs } from '../helpers/client.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// The background jobs really run (pg-boss on the same database, workers inside the app): an order paid on
// the sandbox page reaches the merchant's receiver by the callback job, and a job sent in a transaction
// that rolls back never exists.

let ctx: TestContext;
let receiver: Receiver;
/** The bodies of the callbacks the merchant's receiver got. */
const bodies = () => receiver.received.map((r) => r.body);

beforeAll(async () => {
  ctx = await createTestApp({ JOBS: 'inline' });
  receiver = await startReceiver('/hook');
});

afterAll(async () => {
  await receiver?.close();
  await ctx?.close();
});

describe('jobs', () => {
  it('delivers the callback of an order paid on the sandbox page, once', async () => {
    // A test key: the sandbox page serves test mode only (DESIGN 12).
    const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, {
      notifyUrl: receiver.url,
      mode: 'test',
    });
    const created = await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
      body: { out_trade_no: 'JOB-1', amount: '9.90' },
    });
    const order = created.json().data;
    const paid = await payOnSandboxPage(ctx.app, order.pay_url);
    expect(paid.statusCode).toBe(303);
    await vi.waitFor(() => expect(bodies()).toHaveLength(1), { timeout: 20_000, interval: 100 });
    expect(JSON.parse(bodies()[0])).toMatchObject({
      type: 'collection.paid',
      data: { trade_no: order.trade_no },
    });
    // The attempt is recorded once the receiver has answered.
    const eventOf = () =>
      queryRows<{ status: string; attempts: number }>(
        ctx.database.db,
        sql`select status, attempts from callback_events where ref_id = (select id from collections where trade_no = ${order.trade_no})`,
      );
    await vi.waitFor(async () => expect(await eventOf()).toEqual([{ status: 'delivered', attempts: 1 }]), {
      timeout: 20_000,
      interval: 100,
    });
    expect(bodies()).toHaveLength(1);
  });

  it('a callback job scheduled for a time the event has moved on from (a resend came between) sends nothing', async () => {
    const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey, { notifyUrl: receiver.url });
    const due = new Date(Date.now() - 1000);
    const id = `evt_${Date.now().toString(36)}stalejob0000000000`;
    await ctx.database.db.transaction((tx) =>
      callbacksRepository.insertEvent(tx, {
        id,
        merchantId: m.merchant.id,
        type: 'collection.paid',
        refType: 'collection',
        refId: 1,
        url: receiver.url,
        payload: JSON.stringify({ id, type: 'collection.paid', data: {} }),
        nextAttemptAt: due,
      }),
    );
    const eventOf = async () =>
      (
        await queryRows<{ status: string; attempts: number }>(
          ctx.database.db,
          sql`select status, attempts from callback_events where id = ${id}`,
        )
      )[0];
    const jobDone = (at: string) => async () => {
      const [job] = await queryRows<{ state: string }>(
        ctx.database.db,
        sql`select state from pgboss.job where name = 'callback.deliver' and data->>'id' = ${id} and data->>'at' = ${at}`,
      );
      expect(job?.state).toBe('completed');
    };
    const bodiesBefore = bodies().length;
    const stale = new Date(due.getTime() - 3_600_000).toISOString();
    await ctx.database.db.transaction((tx) =>
      ctx.app.services.jobs.send(tx, 'callback.deliver', { id, at: stale }),
    );
    await vi.waitFor(jobDone(stale), { timeout: 20_000, interval: 100 });
    expect(await eventOf()).toEqual({ status: 'pending', attempts: 0 });
    expect(bodies()).toHaveLength(bodiesBefore);
    // The job of the time the event is due at delivers it.
    await ctx.database.db.transaction((tx) =>
      ctx.app.services.jobs.send(tx, 'callback.deliver', { id, at: due.toISOString() }),
    );
    await vi.waitFor(async () => expect(await eventOf()).toEqual({ status: 'delivered', attempts: 1 }), {
      timeout: 20_000,
      interval: 100,
    });
  });

  it('closes expired unpaid orders by the scheduled expiry sweep', async () => {
    const [schedule] = await queryRows<{ cron: string }>(
      ctx.database.db,
      sql`select cron from pgboss.schedule where name = 'collection.expire'`,
    );
    expect(schedule?.cron).toBe('* * * * *');
    const m = await createGatewayMerchant(ctx.database.db, ctx.config.appKey);
    const order = (
      await gatewayCall(ctx.app, m, 'POST', '/gateway/v1/collections', {
        body: { out_trade_no: 'SWEEP-JOB', amount: '3.00' },
      })
    ).json().data;
    // Its 30 minutes are over (the real clock runs here); the run the schedule makes each minute, now.
    await ctx.database.db.execute(
      sql`update collections set expires_at = now() - interval '1 second' where trade_no = ${order.trade_no}`,
    );
    await ctx.database.db.transaction(async (tx) => {
      await ctx.app.services.jobs.send(tx, 'collection.expire', {});
    });
    const statusOf = async () =>
      (await gatewayCall(ctx.app, m, 'GET', `/gateway/v1/collections/${order.trade_no}`)).json().data.status;
    await vi.waitFor(async () => expect(await statusOf()).toBe('closed'), { timeout: 20_000, interval: 100 });
  });

  it('housekeeping runs from its pg-boss schedule (one job per run, whichever process takes it)', async () => {
    const [schedule] = await queryRows<{ cron: string }>(
      ctx.database.db,
      sql`select cron from pgboss.schedule where name = 'housekeeping'`,
    );
    expect(schedule?.cron).toBe('*/10 * * * *');
    const m = await createMerchant(ctx.database.db);
    const client = await loginAs(ctx.app, m.users.ROOT.email, TEST_PASSWORD);
    await ctx.database.db.execute(
      sql`update sessions set expires_at = now() - interval '1 minute' where user_id = ${m.users.ROOT.id}`,
    );
    expect((await client.get('/api/merchant/user')).statusCode).toBe(401);
    // The run the schedule makes every 10 minutes, now.
    await ctx.database.db.transaction(async (tx) => {
      await ctx.app.services.jobs.send(tx, 'housekeeping', {});
    });
    const sessionsOf = () =>
      queryRows(ctx.database.db, sql`select id from sessions where user_id = ${m.users.ROOT.id}`);
    await vi.waitFor(async () => expect(await sessionsOf()).toEqual([]), { timeout: 20_000, interval: 100 });
  });

  it('a process sets no housekeeping timer of its own (it would sweep once per process)', async () => {
    const setInterval = vi.spyOn(globalThis, 'setInterval');
    const other = await createTestApp();
    try {
      const tenMinutes = setInterval.mock.calls.filter(([, ms]) => ms === 10 * 60 * 1000);
      expect(tenMinutes).toEqual([]);
    } finally {
      setInterval.mockRestore();
      await other.close();
    }
  });

  it('drops a job sent in a transaction that rolls back', async () => {
    const marker = `rollback-${Date.now()}`;
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await ctx.app.services.jobs.send(tx, 'settlement.run', { marker });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await ctx.database.db.transaction(async (tx) => {
      await ctx.app.services.jobs.send(tx, 'settlement.run', { marker: `${marker}-kept` });
    });
    const rows = await queryRows<{ marker: string }>(
      ctx.database.db,
      sql`select data->>'marker' as marker from pgboss.job where name = 'settlement.run' and data->>'marker' like ${`${marker}%`}`,
    );
    expect(rows.map((r) => r.marker)).toEqual([`${marker}-kept`]);
  });
});
