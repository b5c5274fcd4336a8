import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { topUps } from '../../src/db/schema/index.ts';
import { verifyLedger } from '../../src/modules/ledger/index.ts';
import { runOps } from '../../src/cli/ops-commands.ts';
import { httpTransport, injectTransport } from '../../src/cli/transport.ts';
import { createOperatorToken } from '../../src/modules/ops/index.ts';
import { DEMO_PASSWORD } from '../../src/modules/demo/index.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, type TestClient } from '../helpers/client.ts';
import { balanceRow } from '../helpers/ledger.ts';
import { createDemoTestApp } from '../helpers/demo.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// Top-ups (DESIGN 3, 4, 5, 9 and 10): the screenshot rules over real HTTP multipart at the exact byte
// boundary, a spoofed type, a pixel bomb, metadata stripped, the merchant boundary, and the operator's
// review: exactly one decision wins, an approval credits received x rate rounded down, once.

let ctx: TestContext;
let baseUrl: string;
let operatorToken: string;
const NOW = new Date('2026-11-20T08:00:00Z');

beforeAll(async () => {
  ctx = await createTestApp({}, { now: () => NOW });
  baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  operatorToken = await createOperatorToken(ctx.database.db, 'alice');
});
afterAll(() => ctx?.close());

// ---- Images

/** A PNG chunk: length, type, data, CRC of type + data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const smallPng = () =>
  sharp({ create: { width: 16, height: 12, channels: 3, background: '#1677ff' } })
    .png()
    .toBuffer();

/** A valid PNG of exactly `size` bytes: a private ancillary chunk of random bytes pads it before IEND. */
async function pngOfSize(size: number): Promise<Buffer> {
  const png = await smallPng();
  const iend = png.subarray(png.length - 12);
  const head = png.subarray(0, png.length - 12);
  const padding = size - png.length - 12;
  const data = Buffer.alloc(padding);
  for (let i = 0; i < padding; i++) data[i] = (i * 2654435761) >>> 24;
  const out = Buffer.concat([head, chunk('prVt', data), iend]);
  expect(out.length).toBe(size);
  return out;
}

/** A few hundred bytes whose header claims 50000 x 50000 pixels (2.5 gigapixels once decoded). */
async function pixelBomb(): Promise<Buffer> {
  const png = Buffer.from(await smallPng());
  const ihdr = Buffer.from(png.subarray(16, 29));
  ihdr.writeUInt32BE(50000, 0);
  ihdr.writeUInt32BE(50000, 4);
  return Buffer.concat([png.subarray(0, 8), chunk('IHDR', ihdr), png.subarray(33)]);
}

const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

// ---- Clients

async function merchantWithUsers(roles: ('ROOT' | 'FINANCE' | 'OPERATOR' | 'VIEWER')[] = ['ROOT']) {
  const m = await createMerchant(ctx.database.db, { roles });
  const clients: Record<string, TestClient> = {};
  for (const role of roles) clients[role] = await loginAs(ctx.app, m.users[role].email, TEST_PASSWORD);
  return { ...m, clients };
}

/** A real multipart POST over HTTP with the client's session and XSRF token. */
async function upload(
  client: TestClient,
  fields: Record<string, string>,
  file?: { bytes: Buffer; name: string; type: string },
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append('screenshot', new Blob([file.bytes], { type: file.type }), file.name);
  const response = await fetch(`${baseUrl}/api/merchant/recharges`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-xsrf-token': client.cookies.get('XSRF-TOKEN') ?? '',
    },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Answer };
}

type Answer = {
  message: string;
  code?: string;
  errors: Record<string, string[]>;
  data: Record<string, string | null>;
};

const FIELDS = { amount: '100.5', currency: 'USDT', network: 'TRC20' };

function ops(method: 'GET' | 'POST', url: string, body?: Record<string, unknown>) {
  return ctx.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${operatorToken}`, accept: 'application/json' },
    ...(body ? { payload: body } : {}),
  });
}

const storedFiles = (merchantId: number): string[] => {
  try {
    return readdirSync(path.join(ctx.config.dataDir, 'files', 'recharges', String(merchantId)));
  } catch {
    return [];
  }
};

const rowsOf = async (merchantId: number) =>
  ctx.database.db.select().from(topUps).where(eq(topUps.merchantId, merchantId));

async function submitted(client: TestClient, amount = '100.5') {
  const answer = await upload(
    client,
    { ...FIELDS, amount },
    { bytes: await smallPng(), name: 'tx.png', type: 'image/png' },
  );
  expect(answer.status).toBe(201);
  return { recharge_no: String(answer.body.data.recharge_no) };
}

// ---- Tests

describe('the top-up form (POST /api/merchant/recharges, multipart)', () => {
  it('accepts a screenshot of exactly 2,097,152 bytes and refuses one byte more with 413, storing nothing', async () => {
    const m = await merchantWithUsers();
    const exact = await upload(m.clients.ROOT, FIELDS, {
      bytes: await pngOfSize(2_097_152),
      name: 'exact.png',
      type: 'image/png',
    });
    expect(exact.status).toBe(201);
    expect(exact.body.data).toMatchObject({
      status: 'pending_review',
      amount: '100.500000',
      currency: 'USDT',
      network: 'TRC20',
      address: ctx.config.topUp.addresses.TRC20,
      credited_amount: null,
    });
    expect(storedFiles(m.merchant.id)).toHaveLength(1);

    const over = await upload(m.clients.ROOT, FIELDS, {
      bytes: await pngOfSize(2_097_153),
      name: 'over.png',
      type: 'image/png',
    });
    expect(over.status).toBe(413);
    expect(over.body.message).toBeTruthy();
    expect(over.body.code).toBe('payload_too_large');
    expect(await rowsOf(m.merchant.id)).toHaveLength(1);
    expect(storedFiles(m.merchant.id)).toHaveLength(1);
  });

  it('refuses a GIF renamed .png with 415 (the type comes from the bytes)', async () => {
    const m = await merchantWithUsers();
    const answer = await upload(m.clients.ROOT, FIELDS, { bytes: GIF, name: 'shot.png', type: 'image/png' });
    expect(answer.status).toBe(415);
    expect(answer.body.code).toBe('screenshot_type');
    expect(await rowsOf(m.merchant.id)).toHaveLength(0);
    expect(storedFiles(m.merchant.id)).toHaveLength(0);
  });

  it('refuses a pixel bomb from its header (422 screenshot_dimensions), before decoding', async () => {
    const m = await merchantWithUsers();
    const bomb = await pixelBomb();
    expect(bomb.length).toBeLessThan(1000);
    const answer = await upload(m.clients.ROOT, FIELDS, { bytes: bomb, name: 'bomb.png', type: 'image/png' });
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe('screenshot_dimensions');
    expect(answer.body.errors.screenshot[0]).toContain('50000 x 50000');
    expect(await rowsOf(m.merchant.id)).toHaveLength(0);
  });

  it('requires the amount, the network and the screenshot (422 naming each), storing nothing', async () => {
    const m = await merchantWithUsers();
    const missing = await upload(m.clients.ROOT, { currency: 'USDT' });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors)).toEqual(expect.arrayContaining(['amount', 'network']));
    const noFile = await upload(m.clients.ROOT, FIELDS);
    expect(noFile.status).toBe(422);
    expect(noFile.body.code).toBe('screenshot_required');
    const badNetwork = await upload(
      m.clients.ROOT,
      { ...FIELDS, network: 'BEP20' },
      { bytes: await smallPng(), name: 'a.png', type: 'image/png' },
    );
    expect(badNetwork.status).toBe(422);
    expect(badNetwork.body.errors.network).toBeDefined();
    const tooPrecise = await upload(
      m.clients.ROOT,
      { ...FIELDS, amount: '1.1234567' },
      { bytes: await smallPng(), name: 'a.png', type: 'image/png' },
    );
    expect(tooPrecise.status).toBe(422);
    expect(await rowsOf(m.merchant.id)).toHaveLength(0);
    expect(storedFiles(m.merchant.id)).toHaveLength(0);
  });

  it('strips metadata: the EXIF of a JPEG is gone from the stored screenshot, which is served with nosniff', async () => {
    const m = await merchantWithUsers();
    const jpeg = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#ff0000' } })
      .jpeg()
      .withExif({ IFD0: { Artist: 'SecretArtistName', Copyright: 'GPS 31.2304N 121.4737E' } })
      .toBuffer();
    expect(jpeg.includes('SecretArtistName')).toBe(true);
    const answer = await upload(m.clients.ROOT, FIELDS, {
      bytes: jpeg,
      name: 'photo.jpg',
      type: 'image/jpeg',
    });
    expect(answer.status).toBe(201);
    expect(answer.body.data.screenshot_type).toBe('image/jpeg');
    const no = String(answer.body.data.recharge_no);
    const [file] = storedFiles(m.merchant.id);
    expect(file).toMatch(/^[0-9a-f-]{36}\.jpg$/);

    const served = await m.clients.ROOT.get(`/api/merchant/recharges/${no}/screenshot`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(served.rawPayload.includes('SecretArtistName')).toBe(false);
    expect(served.rawPayload.includes('GPS 31.2304N')).toBe(false);
    expect((await sharp(served.rawPayload).metadata()).exif).toBeUndefined();
  });

  it("answers 404 for another merchant's screenshot and keeps lists apart", async () => {
    const a = await merchantWithUsers();
    const b = await merchantWithUsers();
    const { recharge_no } = await submitted(a.clients.ROOT);
    expect((await b.clients.ROOT.get(`/api/merchant/recharges/${recharge_no}/screenshot`)).statusCode).toBe(
      404,
    );
    expect((await b.clients.ROOT.get('/api/merchant/recharges/R1/screenshot')).statusCode).toBe(404);
    const listB = (await b.clients.ROOT.get('/api/merchant/recharges')).json();
    expect(listB.data).toHaveLength(0);
    const listA = (await a.clients.ROOT.get('/api/merchant/recharges')).json();
    expect(listA.data.map((r: { recharge_no: string }) => r.recharge_no)).toEqual([recharge_no]);
  });

  it('enforces the permissions: VIEWER reads, only topup:create submits, OPERATOR sees nothing', async () => {
    const m = await merchantWithUsers(['ROOT', 'FINANCE', 'OPERATOR', 'VIEWER']);
    const { recharge_no } = await submitted(m.clients.FINANCE);
    const viewer = m.clients.VIEWER;
    expect((await viewer.get('/api/merchant/recharges')).statusCode).toBe(200);
    expect((await viewer.get(`/api/merchant/recharges/${recharge_no}/screenshot`)).statusCode).toBe(200);
    expect((await viewer.get('/api/merchant/recharge-options')).statusCode).toBe(403);
    const refused = await upload(viewer, FIELDS, {
      bytes: await smallPng(),
      name: 'a.png',
      type: 'image/png',
    });
    expect(refused.status).toBe(403);
    const operator = m.clients.OPERATOR;
    expect((await operator.get('/api/merchant/recharges')).statusCode).toBe(403);
    expect((await operator.get(`/api/merchant/recharges/${recharge_no}/screenshot`)).statusCode).toBe(403);
    expect(await rowsOf(m.merchant.id)).toHaveLength(1);
    // No session at all.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/merchant/recharges' })).statusCode).toBe(401);
  });

  it('answers the options: both networks with their deposit address and the rate of the merchant currency', async () => {
    const m = await merchantWithUsers();
    const answer = (await m.clients.ROOT.get('/api/merchant/recharge-options')).json();
    expect(answer.data).toEqual({
      currency: 'USDT',
      networks: [
        { network: 'TRC20', address: ctx.config.topUp.addresses.TRC20 },
        { network: 'ERC20', address: ctx.config.topUp.addresses.ERC20 },
      ],
      rate: ctx.config.topUp.rates.CNY,
      merchant_currency: 'CNY',
    });
  });
});

describe("the operator's review (/ops/v1/topups)", () => {
  it('approves with received x rate rounded down, keeps local and USD values, and credits once', async () => {
    const m = await merchantWithUsers();
    const { recharge_no } = await submitted(m.clients.ROOT, '100.2');
    const approve = {
      no: recharge_no,
      received: '100.123456',
      rate: '7.1234',
      reason: 'seen on chain, tx 0xabc',
    };
    const first = await ops('POST', '/ops/v1/topups/approve', approve);
    expect(first.statusCode).toBe(201);
    expect(first.json().data).toMatchObject({
      status: 'approved',
      received_amount: '100.123456',
      rate: '7.1234',
      credited_amount: '713.21',
      credited_currency: 'CNY',
      credited_usd: '100.12',
      reviewed_by: 'alice',
      reason: 'seen on chain, tx 0xabc',
    });
    const again = await ops('POST', '/ops/v1/topups/approve', approve);
    expect(again.statusCode).toBe(409);
    const reject = await ops('POST', '/ops/v1/topups/reject', { no: recharge_no, reason: 'late' });
    expect(reject.statusCode).toBe(409);
    expect((await balanceRow(ctx.database.db, m.merchant.id))?.availableMinor).toBe(71321n);

    // The merchant sees it in its history and its fund flow, and the decision in its security log.
    const listed = (await m.clients.ROOT.get('/api/merchant/recharges')).json();
    expect(listed.data[0]).toMatchObject({ status: 'approved', credited_amount: '713.21' });
    expect(listed.meta.sums).toEqual({ amount: '100.200000', count: 1, credited: '713.21' });
    const flows = (await m.clients.ROOT.get('/api/merchant/fund-flows')).json();
    expect(flows.data[0]).toMatchObject({ type: 'recharge', amount: '713.21' });
    const events = await queryRows<{ type: string; detail: Record<string, unknown> }>(
      ctx.database.db,
      sql`select type, detail from security_events where merchant_id = ${m.merchant.id} and type like 'topup_%'`,
    );
    expect(events).toEqual([
      {
        type: 'topup_approved',
        detail: expect.objectContaining({
          recharge_no,
          operator: 'alice',
          reason: 'seen on chain, tx 0xabc',
        }),
      },
    ]);
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('lets exactly one of a concurrent approve and reject win (the other 409)', async () => {
    const m = await merchantWithUsers();
    for (let round = 0; round < 4; round++) {
      const { recharge_no } = await submitted(m.clients.ROOT);
      const answers = await Promise.all([
        ops('POST', '/ops/v1/topups/approve', {
          no: recharge_no,
          received: '10',
          rate: '7',
          reason: 'ok',
        }),
        ops('POST', '/ops/v1/topups/reject', { no: recharge_no, reason: 'blurry screenshot' }),
      ]);
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses).toEqual([201, 409]);
      const [row] = (await rowsOf(m.merchant.id)).filter((r) => r.topUpNo === recharge_no);
      expect(row.status).toBe(answers[0].statusCode === 201 ? 'approved' : 'rejected');
    }
    const approved = (await rowsOf(m.merchant.id)).filter((r) => r.status === 'approved').length;
    expect((await balanceRow(ctx.database.db, m.merchant.id))?.availableMinor ?? 0n).toBe(
      BigInt(approved) * 7000n,
    );
    expect((await verifyLedger(ctx.database.db)).ok).toBe(true);
  });

  it('rejects with a reason the merchant sees; refuses a decision without a reason, and unknown numbers', async () => {
    const m = await merchantWithUsers();
    const { recharge_no } = await submitted(m.clients.ROOT);
    expect((await ops('POST', '/ops/v1/topups/reject', { no: recharge_no })).statusCode).toBe(422);
    expect(
      (
        await ops('POST', '/ops/v1/topups/approve', {
          no: recharge_no,
          received: '1',
          rate: '0',
          reason: 'x',
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (await ops('POST', '/ops/v1/topups/reject', { no: 'R20261120000000000000', reason: 'x' })).statusCode,
    ).toBe(404);
    const rejected = await ops('POST', '/ops/v1/topups/reject', {
      no: recharge_no,
      reason: 'No transfer found on chain',
    });
    expect(rejected.statusCode).toBe(201);
    const listed = (await m.clients.ROOT.get('/api/merchant/recharges?status=rejected')).json();
    expect(listed.data[0]).toMatchObject({
      recharge_no,
      status: 'rejected',
      reason: 'No transfer found on chain',
      credited_amount: null,
    });
    expect(await balanceRow(ctx.database.db, m.merchant.id)).toBeUndefined();
  });

  it('lists and shows top-ups to operators, and serves them the screenshot', async () => {
    const m = await merchantWithUsers();
    const { recharge_no } = await submitted(m.clients.ROOT);
    const list = await ops('GET', `/ops/v1/topups?merchant=${m.merchant.no}&status=pending_review`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((t: { recharge_no: string }) => t.recharge_no)).toEqual([recharge_no]);
    const show = await ops('GET', `/ops/v1/topups/${recharge_no}`);
    expect(show.json().data).toMatchObject({
      recharge_no,
      merchant: m.merchant.no,
      status: 'pending_review',
    });
    const image = await ops('GET', `/ops/v1/topups/${recharge_no}/screenshot`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    const noToken = await ctx.app.inject({ method: 'GET', url: `/ops/v1/topups/${recharge_no}/screenshot` });
    expect(noToken.statusCode).toBe(401);
  });
});

describe('npm run ops -- topup:*', () => {
  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runOps(argv, {
      io: { out: (t) => out.push(t), err: (t) => err.push(t) },
      connect: async () => injectTransport(ctx.app, operatorToken),
      defaultOperator: 'alice',
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('lists, shows (writing the screenshot to a file), approves and refuses a second decision', async () => {
    const m = await merchantWithUsers();
    const { recharge_no } = await submitted(m.clients.ROOT, '20');
    const list = await cli('topup:list', '--merchant', m.merchant.no, '--status', 'pending_review');
    expect(list.err).toBe('');
    expect(list.code).toBe(0);
    expect(list.out).toContain(recharge_no);

    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'top-up-cli-')), 'shot.png');
    const show = await cli('topup:show', '--no', recharge_no, '--screenshot', file);
    expect(show.code).toBe(0);
    expect(show.out).toContain('pending review');
    expect(show.out).toContain(`written to ${file}`);
    expect(readFileSync(file).subarray(1, 4).toString('latin1')).toBe('PNG');

    const missingReason = await cli(
      'topup:approve',
      '--no',
      recharge_no,
      '--received',
      '20',
      '--rate',
      '7.1',
    );
    expect(missingReason.code).toBe(2);
    const approve = await cli(
      'topup:approve',
      '--no',
      recharge_no,
      '--received',
      '19.999999',
      '--rate',
      '7.1',
      '--reason',
      'seen on chain',
    );
    expect(approve.code).toBe(0);
    // 19.999999 x 7.1 = 141.9999929 -> 141.99 (rounded down)
    expect(approve.out).toContain('credited 141.99 CNY');
    const twice = await cli('topup:reject', '--no', recharge_no, '--reason', 'changed my mind');
    expect(twice.code).toBe(1);
    expect(twice.err).toContain('409');
    expect((await balanceRow(ctx.database.db, m.merchant.id))?.availableMinor).toBe(14199n);
    const events = await queryRows<{ detail: { operator: string } }>(
      ctx.database.db,
      sql`select detail from security_events where merchant_id = ${m.merchant.id} and type = 'topup_approved'`,
    );
    expect(events.map((e) => e.detail.operator)).toEqual(['alice']);
  });
});

describe('npm run ops -- topup:show over HTTP (a running server)', () => {
  it('writes the same bytes the console serves', async () => {
    const m = await merchantWithUsers();
    const { recharge_no } = await submitted(m.clients.ROOT, '5');
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'top-up-http-')), 'shot.png');
    const out: string[] = [];
    const code = await runOps(['topup:show', '--no', recharge_no, '--screenshot', file], {
      io: { out: (t) => out.push(t), err: (t) => out.push(t) },
      connect: async () => httpTransport(baseUrl, operatorToken),
      defaultOperator: 'alice',
    });
    expect(code).toBe(0);
    const served = await m.clients.ROOT.get(`/api/merchant/recharges/${recharge_no}/screenshot`);
    expect(readFileSync(file).equals(served.rawPayload)).toBe(true);
    expect(out.join('\n')).toContain('image/png');
  });
});

describe('the demo seed', () => {
  it('gives M100001 top-ups in every state, each with a stored screenshot, and the ledger stays clean', async () => {
    const demo = await createDemoTestApp();
    try {
      const root = await loginAs(demo.app, 'root@demo.paydesk.test', DEMO_PASSWORD);
      const list = (await root.get('/api/merchant/recharges')).json();
      expect(new Set(list.data.map((r: { status: string }) => r.status))).toEqual(
        new Set(['pending_review', 'approved', 'rejected']),
      );
      expect(list.meta.sums.credited).toBe('12055.53');
      for (const row of list.data as { recharge_no: string }[]) {
        const image = await root.get(`/api/merchant/recharges/${row.recharge_no}/screenshot`);
        expect(image.statusCode).toBe(200);
        expect(image.headers['content-type']).toBe('image/png');
      }
      const flows = (await root.get('/api/merchant/fund-flows?type=recharge')).json();
      expect(flows.data).toHaveLength(2);
      expect((await verifyLedger(demo.database.db)).ok).toBe(true);
    } finally {
      await demo.close();
    }
  });
});
