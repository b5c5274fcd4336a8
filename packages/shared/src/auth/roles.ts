// The role table: which permissions each role holds. The server enforces it on every call;
// the console uses the same table to build its menu and routes and to hide what a user may not use.

/** A disabled merchant's users cannot sign in and its gateway calls are refused. */
export const MERCHANT_STATUSES = ['active', 'disabled'] as const;
export type MerchantStatus = (typeof MERCHANT_STATUSES)[number];

export const ROLES = ['ROOT', 'FINANCE', 'OPERATOR', 'VIEWER'] as const;
export type Role = (typeof ROLES)[number];

export const PERMS = [
  'dashboard:view',
  'collection:view',
  'collection:notify',
  // Refund a paid collection (DESIGN 14): money leaves the balance, so ROOT and OPERATOR with both factors.
  'refund:create',
  'payout:view',
  'payout:create',
  'payout:notify',
  // Approve or reject a payout waiting for approval (DESIGN 16): ROOT and FINANCE, never its maker.
  'payout:approve',
  // Set the payout approval thresholds (DESIGN 16): ROOT only.
  'payout-approval:manage',
  'topup:view',
  'topup:create',
  'withdrawal:view',
  'withdrawal:create',
  'funds:view',
  'export:view',
  'export:create',
  'profile:manage',
  'security:manage',
  'payment-password:manage',
  'access-key:manage',
  'ip-whitelist:manage',
  'contact:view',
  // Test mode's own money and data (DESIGN 12): add test funds, delete every test object. ROOT only.
  'test-data:manage',
  // Settings > Team (DESIGN 16): invite, change roles, disable, reset two-factor. ROOT only.
  'team:manage',
] as const;
export type Perm = (typeof PERMS)[number];

const EVERYONE: Perm[] = ['dashboard:view', 'profile:manage', 'security:manage', 'contact:view'];

export const ROLE_PERMS: Record<Role, readonly Perm[]> = {
  ROOT: PERMS,
  FINANCE: [
    ...EVERYONE,
    'funds:view',
    'topup:view',
    'topup:create',
    'withdrawal:view',
    'withdrawal:create',
    'export:view',
    'export:create',
    'payment-password:manage',
    // An approver sees what it approves: Send money history (read-only beyond approve and reject).
    'payout:view',
    'payout:approve',
  ],
  OPERATOR: [
    ...EVERYONE,
    'collection:view',
    'collection:notify',
    'refund:create',
    'payout:view',
    'payout:create',
    'payout:notify',
    'export:view',
    'export:create',
    'payment-password:manage',
  ],
  // Every list page, read-only: nothing that moves money or sends a callback, no keys, no whitelist.
  VIEWER: [
    ...EVERYONE,
    'collection:view',
    'payout:view',
    'topup:view',
    'withdrawal:view',
    'funds:view',
    'export:view',
  ],
};

export const isRole = (value: unknown): value is Role =>
  typeof value === 'string' && (ROLES as readonly string[]).includes(value);

/** The union of the permissions of the given roles plus any granted one by one. */
export function permsFor(roles: readonly string[], extra: readonly string[] = []): Perm[] {
  const granted = new Set<string>(extra);
  for (const role of roles) if (isRole(role)) ROLE_PERMS[role].forEach((p) => granted.add(p));
  return PERMS.filter((p) => granted.has(p));
}

export const hasPerm = (perms: readonly string[], perm: Perm): boolean => perms.includes(perm);
