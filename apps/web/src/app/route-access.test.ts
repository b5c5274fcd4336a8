import { describe, expect, it } from 'vitest';
import { permsFor, type Role } from '@paydesk/shared/auth/roles.ts';
import { allowedMenu, allowedRoutes, groupRedirect } from './route-access.ts';
import { PAGE_ROUTES, ROUTE_GROUPS } from './routes.ts';

const pathsFor = (role: Role) => allowedRoutes(permsFor([role])).map((route) => route.path);
const group = (path: string) => ROUTE_GROUPS.find((g) => g.path === path)!;
const HIDDEN = ['/statusPages', '/authentication'];

describe('routes allowed by role', () => {
  it('ROOT opens every route', () => {
    expect(pathsFor('ROOT')).toEqual(PAGE_ROUTES.map((route) => route.path));
    expect(pathsFor('ROOT')).toContain('/setting/interfaceKey');
  });

  it('FINANCE: funds, top-ups, withdrawals, the payouts it approves, exports, dashboard, settings without access key', () => {
    expect(pathsFor('FINANCE')).toEqual([
      '/dashboard',
      '/behalfPay/transfers',
      '/recharge/topup',
      '/recharge/record',
      '/withdrawal/apply',
      '/withdrawal/record',
      '/fund/fundWater',
      '/fund/dailyReport',
      '/setting/personalData',
      '/setting/accountSecurity',
      '/setting/paymentPassword',
      '/lineExport',
      '/contactUs',
      ...HIDDEN,
    ]);
  });

  it('OPERATOR: collection, send money, dashboard, exports, settings without access key', () => {
    expect(pathsFor('OPERATOR')).toEqual([
      '/dashboard',
      '/collection/payments',
      '/collection/Settlements',
      '/collection/refunds',
      '/behalfPay/transfers',
      '/behalfPay/apply',
      '/setting/personalData',
      '/setting/accountSecurity',
      '/setting/paymentPassword',
      '/setting/webhookDeliveries',
      '/lineExport',
      '/contactUs',
      ...HIDDEN,
    ]);
  });

  it('VIEWER: every list page, no form that moves money, no access key', () => {
    expect(pathsFor('VIEWER')).toEqual([
      '/dashboard',
      '/collection/payments',
      '/collection/Settlements',
      '/collection/refunds',
      '/behalfPay/transfers',
      '/recharge/record',
      '/withdrawal/record',
      '/fund/fundWater',
      '/fund/dailyReport',
      '/setting/personalData',
      '/setting/accountSecurity',
      '/setting/webhookDeliveries',
      '/lineExport',
      '/contactUs',
      ...HIDDEN,
    ]);
  });

  it('a user with no known role opens only the pages every signed-in user may', () => {
    expect(allowedRoutes(permsFor(['SOMETHING_ELSE'])).map((route) => route.path)).toEqual(HIDDEN);
  });

  it('a permission granted one by one opens its page', () => {
    const perms = permsFor(['VIEWER'], ['payout:create']);
    expect(allowedRoutes(perms).map((route) => route.path)).toContain('/behalfPay/apply');
  });
});

describe('the menu', () => {
  it('keeps the spec order and drops groups the role cannot open', () => {
    const titles = (role: Role) =>
      allowedMenu(permsFor([role])).map((entry) =>
        entry.kind === 'page' ? entry.route.titleKey : entry.group.titleKey,
      );
    expect(titles('ROOT')).toEqual([
      'routes:dashboard',
      'routes:collection',
      'routes:behalfPay',
      'routes:topUps',
      'routes:withdrawal',
      'routes:fund',
      'routes:setting',
      'routes:lineExport',
      'routes:contactUs',
    ]);
    expect(titles('FINANCE')).not.toContain('routes:collection');
    // FINANCE approves payouts (DESIGN 16): it sees Send money's history, not its form.
    expect(titles('FINANCE')).toContain('routes:behalfPay');
    expect(pathsFor('FINANCE')).not.toContain('/behalfPay/apply');
    expect(titles('OPERATOR')).not.toContain('routes:fund');
    expect(titles('OPERATOR')).not.toContain('routes:topUps');
  });

  it('lists Settings > IP whitelist as its own page after Access key, then Test data, each for its permission', () => {
    const settings = (perms: readonly string[]) =>
      allowedMenu(perms).flatMap((entry) =>
        entry.kind === 'group' && entry.group.path === '/setting'
          ? entry.children.map((child) => [child.path, child.titleKey])
          : [],
      );
    expect(settings(permsFor(['ROOT']))).toEqual([
      ['/setting/personalData', 'routes:personalData'],
      ['/setting/accountSecurity', 'routes:accountSecurity'],
      ['/setting/paymentPassword', 'routes:paymentPassword'],
      ['/setting/interfaceKey', 'routes:interfaceKey'],
      ['/setting/ipWhitelist', 'routes:ipWhitelist'],
      ['/setting/payoutApproval', 'routes:payoutApproval'],
      ['/setting/webhookDeliveries', 'routes:webhookDeliveries'],
      ['/setting/test-data', 'routes:testData'],
      ['/setting/team', 'routes:team'],
    ]);
    expect(settings(['ip-whitelist:manage'])).toEqual([['/setting/ipWhitelist', 'routes:ipWhitelist']]);
    expect(settings(permsFor(['FINANCE']))).not.toContainEqual([
      '/setting/ipWhitelist',
      'routes:ipWhitelist',
    ]);
    // Test data is ROOT's alone (test-data:manage).
    for (const role of ['FINANCE', 'OPERATOR', 'VIEWER'] as const) {
      expect(settings(permsFor([role])).map(([path]) => path)).not.toContain('/setting/test-data');
    }
  });

  it('never lists hidden pages', () => {
    const listed = allowedMenu(permsFor(['ROOT'])).flatMap((entry) =>
      entry.kind === 'page' ? [entry.route.path] : entry.children.map((child) => child.path),
    );
    for (const path of HIDDEN) expect(listed).not.toContain(path);
  });
});

describe('group redirects', () => {
  it('follow the spec, with /behalfPay going to the send money history', () => {
    const root = permsFor(['ROOT']);
    expect(groupRedirect(group('/collection'), root)).toBe('/collection/payments');
    expect(groupRedirect(group('/behalfPay'), root)).toBe('/behalfPay/transfers');
    expect(groupRedirect(group('/recharge'), root)).toBe('/recharge/topup');
    expect(groupRedirect(group('/withdrawal'), root)).toBe('/withdrawal/apply');
    expect(groupRedirect(group('/fund'), root)).toBe('/fund/fundWater');
    expect(groupRedirect(group('/setting'), root)).toBe('/setting/personalData');
  });

  it("go to the group's first page the user may open when the spec's target is closed to them", () => {
    const viewer = permsFor(['VIEWER']);
    expect(groupRedirect(group('/recharge'), viewer)).toBe('/recharge/record');
    expect(groupRedirect(group('/withdrawal'), viewer)).toBe('/withdrawal/record');
    expect(groupRedirect(group('/collection'), permsFor(['FINANCE']))).toBe('/403');
  });
});
