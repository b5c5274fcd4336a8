import diagnostics from 'node:diagnostics_channel';
import type { FastifyInstance, LightMyRequestResponse, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Perm, permsFor, ROLES, type Role } from '@paydesk/shared';
import { guardOf, type RouteGuard } from '../../src/modules/auth/index.ts';
import { createMerchant, TEST_PASSWORD } from '../factories/merchants.ts';
import { loginAs, TestClient } from '../helpers/client.ts';
import { createTestApp, type TestContext } from '../helpers/test-app.ts';

// The route x role matrix (issue 33): every console route the app registers, called as each role and signed
// out, answers as the role table of @paydesk/shared says. The routes are collected from the real app as it
// registers them (Fastify's onRoute hook, added through its documented `fastify.initialization` diagnostics
// channel before any route exists); each route's guard is read from its hooks (guardOf).

/** The /api routes a signed-out browser must reach, each with why. Any other /api route needs a guard. */
const PUBLIC: Record<string, string> = {
  'GET /api/csrf-cookie': 'issues the XSRF-TOKEN cookie a signed-out browser needs to sign in',
  'POST /api/login': 'signs in',
  'POST /api/two-factor-challenge': 'the second step of signing in (the session knows who is in the middle)',
  'POST /api/logout': 'ends whatever session the browser has; without one it changes nothing',
  'GET /api/auth/invitations/:token': "the invitation page: the link's one-time token is the credential",
  'POST /api/auth/invitations/:token/accept':
    'an invited colleague sets a password (the token is the credential)',
};

/**
 * The reviewed guard of every guarded console route: a permission, or SIGNED_IN for any signed-in user.
 * A route added, removed or guarded differently fails 'every guard is the reviewed one' until this says so.
 */
const SIGNED_IN = 'signed in';
const REVIEWED: Record<string, Perm | typeof SIGNED_IN> = {
  // Who is signed in, and their own account.
  'GET /api/merchant/user': SIGNED_IN,
  'GET /api/user/meta': SIGNED_IN,
  'POST /api/user/confirm-password': SIGNED_IN,
  'GET /api/user/confirmed-password-status': SIGNED_IN,
  'POST /api/merchant/step-up/verify': SIGNED_IN,
  // The language of the user's mail, and their own bell (DESIGN 16).
  'PUT /api/user/locale': SIGNED_IN,
  'GET /api/merchant/notifications': SIGNED_IN,
  'POST /api/merchant/notifications/read': SIGNED_IN,
  'PUT /api/user/profile-information': 'profile:manage',
  'PUT /api/user/password': 'security:manage',
  'POST /api/user/two-factor-authentication': 'security:manage',
  'DELETE /api/user/two-factor-authentication': 'security:manage',
  'GET /api/user/two-factor-qr-code': 'security:manage',
  'GET /api/user/two-factor-secret-key': 'security:manage',
  'POST /api/user/confirmed-two-factor-authentication': 'security:manage',
  'GET /api/user/two-factor-recovery-codes': 'security:manage',
  'POST /api/user/two-factor-recovery-codes': 'security:manage',
  'GET /api/merchant/two-factor-secret-key': 'security:manage',
  'POST /api/merchant/confirmed-two-factor-authentication': 'security:manage',
  'GET /api/user/sessions': 'security:manage',
  'DELETE /api/user/other-browser-sessions': 'security:manage',
  'GET /api/merchant/security-events': 'security:manage',
  'PUT /api/merchant/payment-password': 'payment-password:manage',
  'POST /api/merchant/payment-password/reset': 'payment-password:manage',
  // The merchant's keys and whitelist.
  'GET /api/merchant/access-key': 'access-key:manage',
  'GET /api/merchant/access-key/secret': 'access-key:manage',
  'PUT /api/merchant/access-key/regenerate': 'access-key:manage',
  'PUT /api/merchant/access-key/update': 'access-key:manage',
  'GET /api/merchant/ip-address': 'ip-whitelist:manage',
  'PUT /api/merchant/ip-address': 'ip-whitelist:manage',
  // Test mode's own money and data (DESIGN 12).
  'POST /api/merchant/test-funds': 'test-data:manage',
  'GET /api/merchant/test-data/delete': 'test-data:manage',
  'POST /api/merchant/test-data/delete': 'test-data:manage',
  // Settings > Team (DESIGN 16).
  'GET /api/merchant/team': 'team:manage',
  'POST /api/merchant/team/invitations': 'team:manage',
  'PUT /api/merchant/team/:id/role': 'team:manage',
  'POST /api/merchant/team/:id/disable': 'team:manage',
  'POST /api/merchant/team/:id/enable': 'team:manage',
  'POST /api/merchant/team/:id/reset-two-factor': 'team:manage',
  // Pages.
  'GET /api/merchant/dashboard': 'dashboard:view',
  'GET /api/merchant/contact': 'contact:view',
  'GET /api/merchant/balance': 'funds:view',
  'GET /api/merchant/fund-flows': 'funds:view',
  'GET /api/merchant/fund-flows/:id': 'funds:view',
  'GET /api/merchant/daily-reports': 'funds:view',
  'GET /api/merchant/collections': 'collection:view',
  'GET /api/merchant/collections/:trade_no': 'collection:view',
  'POST /api/merchant/collections/:trade_no/notify': 'collection:notify',
  'POST /api/merchant/collections/:trade_no/refunds': 'refund:create',
  'GET /api/merchant/refunds': 'collection:view',
  'GET /api/merchant/refunds/:refund_no': 'collection:view',
  // Settings > Webhook deliveries (DESIGN 6): seen with the orders, resent as an order's callback is.
  'GET /api/merchant/callbacks': 'collection:view',
  'POST /api/merchant/callbacks/resend': 'collection:notify',
  'POST /api/merchant/callbacks/:event_id/resend': 'collection:notify',
  'GET /api/merchant/settlements': 'collection:view',
  'GET /api/merchant/settlements/:settlement_no': 'collection:view',
  'GET /api/merchant/payout-channels': 'payout:create',
  'POST /api/merchant/payouts': 'payout:create',
  'GET /api/merchant/payouts': 'payout:view',
  'GET /api/merchant/payouts/:trade_no': 'payout:view',
  'POST /api/merchant/payouts/:trade_no/notify': 'payout:notify',
  // Payout approval (DESIGN 16): ROOT and FINANCE decide; ROOT alone sets the thresholds.
  'POST /api/merchant/payouts/:trade_no/approve': 'payout:approve',
  'POST /api/merchant/payouts/:trade_no/reject': 'payout:approve',
  'GET /api/merchant/payout-approval': 'payout-approval:manage',
  'PUT /api/merchant/payout-approval': 'payout-approval:manage',
  // What the payout and withdrawal forms show before submit: the permission follows ?kind= (the route's own).
  'GET /api/merchant/limits': SIGNED_IN,
  'GET /api/merchant/withdrawal-options': 'withdrawal:create',
  'POST /api/merchant/withdrawals': 'withdrawal:create',
  'GET /api/merchant/withdrawals': 'withdrawal:view',
  'GET /api/merchant/withdrawals/:withdrawal_no': 'withdrawal:view',
  'GET /api/merchant/recharge-options': 'topup:create',
  'POST /api/merchant/recharges': 'topup:create',
  'GET /api/merchant/recharges': 'topup:view',
  'GET /api/merchant/recharges/:no/screenshot': 'topup:view',
  'POST /api/merchant/exports': 'export:create',
  'GET /api/merchant/exports': 'export:view',
  'GET /api/merchant/exports/:id': 'export:view',
  'GET /api/merchant/exports/:id/download': 'export:view',
  'POST /api/merchant/exports/:id/retry': 'export:create',
};

type Route = { key: string; method: string; url: string; guard: RouteGuard | undefined; late: boolean };

let ctx: TestContext;
const routes: Route[] = [];
const clients = {} as Record<Role | 'signed out', TestClient>;

function collectRoutes({ fastify }: { fastify: FastifyInstance }) {
  fastify.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api/')) return;
    for (const method of [route.method].flat()) {
      // Fastify adds a HEAD route beside every GET, with the GET's hooks.
      if (method === 'HEAD') continue;
      const later = [route.preParsing, route.preValidation, route.preHandler].flat();
      routes.push({
        key: `${method} ${route.url}`,
        method,
        url: route.url,
        guard: guardOf([route.onRequest, ...later].flat()),
        // A guard after the body is read and validated answers 422 before 401/403.
        late: guardOf(later) !== undefined,
      });
    }
  });
}

beforeAll(async () => {
  diagnostics.subscribe('fastify.initialization', collectRoutes as (message: unknown) => void);
  try {
    ctx = await createTestApp();
  } finally {
    diagnostics.unsubscribe('fastify.initialization', collectRoutes as (message: unknown) => void);
  }
  const { users } = await createMerchant(ctx.database.db, { roles: [...ROLES] });
  await Promise.all(
    ROLES.map(async (role) => {
      clients[role] = await loginAs(ctx.app, users[role].email, TEST_PASSWORD);
    }),
  );
  // Signed out, with a valid XSRF token: its unsafe calls must meet 401, not 419.
  clients['signed out'] = new TestClient(ctx.app);
  await clients['signed out'].csrf();
});
afterAll(() => ctx?.close());

/** A path parameter that names nothing: a holder of the permission gets 404 (or 422), never a record. */
const urlOf = (route: Route) => route.url.replace(/:[A-Za-z_]+/g, 'X000000000');

const call = (client: TestClient, route: Route): Promise<LightMyRequestResponse> =>
  client.request(route.method as 'GET', urlOf(route), route.method === 'GET' ? {} : { body: {} });

type Answer = '401' | '403' | 'through';
const classOf = (status: number): Answer => (status === 401 ? '401' : status === 403 ? '403' : 'through');

const guarded = () => routes.filter((route) => !(route.key in PUBLIC));

describe('the route x role matrix', () => {
  it('collects every console route from the app, and each public one is listed with its reason', () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(new Set(routes.map((route) => route.key)).size).toBe(routes.length);
    for (const key of Object.keys(PUBLIC)) expect(routes.map((route) => route.key)).toContain(key);
    for (const route of routes.filter((r) => r.key in PUBLIC)) expect(route.guard, route.key).toBeUndefined();
  });

  it('every other console route has a guard, run before its body is read or validated', () => {
    const unguarded = guarded().filter((route) => !route.guard);
    expect(
      unguarded.map((route) => route.key),
      'no requireAuth or requirePerm (or list it in PUBLIC)',
    ).toEqual([]);
    const late = routes.filter((route) => route.late);
    expect(
      late.map((route) => route.key),
      'a guard in preValidation/preHandler: make it onRequest',
    ).toEqual([]);
  });

  it('every guard is the reviewed one', () => {
    const declared = Object.fromEntries(
      guarded().map((route) => [route.key, route.guard ? (route.guard.perm ?? SIGNED_IN) : 'none']),
    );
    expect(declared).toEqual(REVIEWED);
  });

  it('each role and a signed-out client get the answer the role table gives, on every route', async () => {
    const answers = await matrix();
    const wrong = answers
      .filter((a) => classOf(a.status) !== a.expected || a.status >= 500)
      .map((a) => `${a.key} as ${a.caller}: expected ${a.expected}, got ${a.status} ${a.body.slice(0, 120)}`);
    expect(wrong).toEqual([]);
    // 401 and 403 say why, as every refusal does.
    for (const a of answers.filter((x) => x.status === 401 || x.status === 403)) {
      expect(JSON.parse(a.body).message, `${a.key} as ${a.caller}`).toEqual(expect.any(String));
    }
  });

  it('VIEWER, the read-only role, gets through no unsafe route but those of its own account', async () => {
    const ownAccount = new Set<string>([SIGNED_IN, 'profile:manage', 'security:manage']);
    const through = (await matrix()).filter(
      (a) => a.caller === 'VIEWER' && a.method !== 'GET' && classOf(a.status) === 'through',
    );
    expect(through.filter((a) => !ownAccount.has(REVIEWED[a.key] ?? '')).map((a) => a.key)).toEqual([]);
  });
});

type Caller = Role | 'signed out';
type Called = { key: string; method: string; caller: Caller; expected: Answer; status: number; body: string };
let answers: Promise<Called[]> | undefined;

/**
 * Every guarded route called by each role and signed out, all at once: GETs without a query, other methods
 * with an empty JSON body, path parameters that name nothing. What the role table expects of each call:
 * signed out 401; a role without the route's permission 403; with it, anything but 401 and 403.
 */
function matrix(): Promise<Called[]> {
  answers ??= Promise.all(
    guarded().flatMap((route) =>
      ([...ROLES, 'signed out'] as const).map(async (caller): Promise<Called> => {
        const perm = REVIEWED[route.key] ?? route.guard?.perm ?? SIGNED_IN;
        const expected: Answer =
          caller === 'signed out'
            ? '401'
            : perm === SIGNED_IN || permsFor([caller]).includes(perm)
              ? 'through'
              : '403';
        const response = await call(clients[caller], route);
        const { key, method } = route;
        return { key, method, caller, expected, status: response.statusCode, body: response.body };
      }),
    ),
  );
  return answers;
}
