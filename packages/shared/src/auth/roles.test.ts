import { describe, expect, it } from 'vitest';
import { hasPerm, PERMS, permsFor, ROLE_PERMS, ROLES } from './roles.ts';

describe('permsFor', () => {
  it('ROOT holds every permission', () => {
    expect(permsFor(['ROOT'])).toEqual([...PERMS]);
  });

  it('VIEWER reads every list but moves no money, sends no callback and manages no key or whitelist', () => {
    const perms = permsFor(['VIEWER']);
    expect(perms).toEqual(
      expect.arrayContaining(['collection:view', 'payout:view', 'funds:view', 'export:view']),
    );
    for (const perm of [
      'payout:create',
      'collection:notify',
      'payout:notify',
      'topup:create',
      'withdrawal:create',
      'export:create',
      'access-key:manage',
      'ip-whitelist:manage',
      'payment-password:manage',
    ] as const) {
      expect(perms).not.toContain(perm);
    }
  });

  it('FINANCE moves funds but sends no payout; OPERATOR sends payouts but sees no funds', () => {
    expect(permsFor(['FINANCE'])).toContain('withdrawal:create');
    expect(permsFor(['FINANCE'])).not.toContain('payout:create');
    expect(permsFor(['OPERATOR'])).toContain('payout:create');
    expect(permsFor(['OPERATOR'])).not.toContain('funds:view');
  });

  it('only ROOT and OPERATOR send a callback again (each resend sends a webhook)', () => {
    for (const perm of ['collection:notify', 'payout:notify'] as const) {
      expect(ROLES.filter((role) => permsFor([role]).includes(perm))).toEqual(['ROOT', 'OPERATOR']);
    }
  });

  it('unites several roles without repeats, in the order of PERMS', () => {
    const both = permsFor(['OPERATOR', 'FINANCE']);
    expect(new Set(both).size).toBe(both.length);
    expect(both).toEqual(PERMS.filter((p) => both.includes(p)));
    expect(both).toEqual(expect.arrayContaining([...ROLE_PERMS.OPERATOR, ...ROLE_PERMS.FINANCE]));
  });

  it('adds permissions granted one by one, and ignores unknown roles and unknown permissions', () => {
    expect(permsFor(['VIEWER'], ['payout:create'])).toContain('payout:create');
    expect(permsFor(['ADMIN', 'root'])).toEqual([]);
    expect(permsFor([], ['everything', 'funds:view'])).toEqual(['funds:view']);
  });

  it('everyone may see the dashboard and manage their own profile and security', () => {
    for (const role of ['FINANCE', 'OPERATOR', 'VIEWER'] as const) {
      const perms = permsFor([role]);
      expect(hasPerm(perms, 'dashboard:view')).toBe(true);
      expect(hasPerm(perms, 'profile:manage')).toBe(true);
      expect(hasPerm(perms, 'security:manage')).toBe(true);
    }
  });
});
