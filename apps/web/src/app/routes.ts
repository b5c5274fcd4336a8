// The spec's route table (section 2). Paths are kept as the spec has them: users bookmark them.
// Each page carries the permission (from @paydesk/shared/auth/roles.ts) that the guard and the menu check.
import type { ComponentType } from 'react';
import type { Perm } from '@paydesk/shared/auth/roles.ts';

export type IconName = 'home' | 'order' | 'df' | 'cz' | 'pass' | 'cash' | 'set' | 'export' | 'lx';

type PageModule = { default: ComponentType };

export type PageRoute = {
  path: string;
  /** Translation key of the title shown in the menu, the tabs, the breadcrumb and the browser title. */
  titleKey: string;
  /** The permission a user needs; none means any signed-in user. */
  perm?: Perm;
  /** Pinned in the tags view: always there, never closable. */
  affix?: boolean;
  /** Kept out of the menu and the tags view. */
  hidden?: boolean;
  /**
   * false: the page mounts afresh each time its tab is shown (the spec's Dashboard, "not kept alive").
   * Every other page in the tags view keeps its state (a half-filled form) until its tab is closed.
   */
  keepAlive?: false;
  /** Icon of a top-level menu entry. */
  icon?: IconName;
  /** Real money only (DESIGN 12): in test mode the page says so instead of showing its form or list. */
  liveOnly?: true;
  load: () => Promise<PageModule>;
};

export type RouteGroup = {
  path: string;
  titleKey: string;
  icon: IconName;
  /** Where the group's own path goes (spec section 2); the first child the user may open wins otherwise. */
  redirect: string;
  children: PageRoute[];
};

export const DASHBOARD_PATH = '/dashboard';

export const dashboardRoute: PageRoute = {
  path: DASHBOARD_PATH,
  titleKey: 'routes:dashboard',
  perm: 'dashboard:view',
  affix: true,
  keepAlive: false,
  icon: 'home',
  load: () => import('../features/dashboard/pages/dashboard-page.tsx'),
};

export const ROUTE_GROUPS: RouteGroup[] = [
  {
    path: '/collection',
    titleKey: 'routes:collection',
    icon: 'order',
    redirect: '/collection/payments',
    children: [
      {
        path: '/collection/payments',
        titleKey: 'routes:payments',
        perm: 'collection:view',
        load: () => import('../features/collections/pages/collections-page.tsx'),
      },
      {
        path: '/collection/Settlements',
        titleKey: 'routes:settlements',
        perm: 'collection:view',
        load: () => import('../features/collections/pages/settlements-page.tsx'),
      },
      {
        // DESIGN 14: the refunds of the merchant's collections.
        path: '/collection/refunds',
        titleKey: 'routes:refunds',
        perm: 'collection:view',
        load: () => import('../features/refunds/pages/refunds-page.tsx'),
      },
    ],
  },
  {
    path: '/behalfPay',
    titleKey: 'routes:behalfPay',
    icon: 'df',
    // DESIGN section 7: the spec's target (/behalfPay/payments) does not exist.
    redirect: '/behalfPay/transfers',
    children: [
      {
        path: '/behalfPay/transfers',
        titleKey: 'routes:transfers',
        perm: 'payout:view',
        load: () => import('../features/payouts/pages/payouts-page.tsx'),
      },
      {
        path: '/behalfPay/apply',
        titleKey: 'routes:transfersApply',
        perm: 'payout:create',
        load: () => import('../features/payouts/pages/payout-apply-page.tsx'),
      },
    ],
  },
  {
    path: '/recharge',
    titleKey: 'routes:topUps',
    icon: 'cz',
    redirect: '/recharge/topup',
    children: [
      {
        path: '/recharge/topup',
        titleKey: 'routes:topUp',
        perm: 'topup:create',
        liveOnly: true,
        load: () => import('../features/top-ups/pages/top-up-page.tsx'),
      },
      {
        path: '/recharge/record',
        titleKey: 'routes:topUpRecord',
        perm: 'topup:view',
        liveOnly: true,
        load: () => import('../features/top-ups/pages/top-up-record-page.tsx'),
      },
    ],
  },
  {
    path: '/withdrawal',
    titleKey: 'routes:withdrawal',
    icon: 'pass',
    redirect: '/withdrawal/apply',
    children: [
      {
        path: '/withdrawal/apply',
        titleKey: 'routes:withdrawalApply',
        perm: 'withdrawal:create',
        liveOnly: true,
        load: () => import('../features/withdrawals/pages/withdrawal-apply-page.tsx'),
      },
      {
        path: '/withdrawal/record',
        titleKey: 'routes:withdrawalRecord',
        perm: 'withdrawal:view',
        liveOnly: true,
        load: () => import('../features/withdrawals/pages/withdrawal-record-page.tsx'),
      },
    ],
  },
  {
    path: '/fund',
    titleKey: 'routes:fund',
    icon: 'cash',
    redirect: '/fund/fundWater',
    children: [
      {
        path: '/fund/fundWater',
        titleKey: 'routes:fundWater',
        perm: 'funds:view',
        load: () => import('../features/funds/pages/fund-flows-page.tsx'),
      },
      {
        path: '/fund/dailyReport',
        titleKey: 'routes:dailyReport',
        perm: 'funds:view',
        load: () => import('../features/funds/pages/daily-report-page.tsx'),
      },
    ],
  },
  {
    path: '/setting',
    titleKey: 'routes:setting',
    icon: 'set',
    redirect: '/setting/personalData',
    children: [
      {
        path: '/setting/personalData',
        titleKey: 'routes:personalData',
        perm: 'profile:manage',
        load: () => import('../features/settings/pages/personal-data-page.tsx'),
      },
      {
        path: '/setting/accountSecurity',
        titleKey: 'routes:accountSecurity',
        perm: 'security:manage',
        load: () => import('../features/settings/pages/account-security-page.tsx'),
      },
      {
        path: '/setting/paymentPassword',
        titleKey: 'routes:paymentPassword',
        perm: 'payment-password:manage',
        load: () => import('../features/settings/pages/payment-password-page.tsx'),
      },
      {
        // The access key, with the IP whitelist beside it ("IP address is also under Settings").
        path: '/setting/interfaceKey',
        titleKey: 'routes:interfaceKey',
        perm: 'access-key:manage',
        load: () => import('../features/settings/pages/access-key-page.tsx'),
      },
      {
        // The spec's Settings list names the IP whitelist: a menu entry of its own too.
        path: '/setting/ipWhitelist',
        titleKey: 'routes:ipWhitelist',
        perm: 'ip-whitelist:manage',
        load: () => import('../features/settings/pages/ip-whitelist-page.tsx'),
      },
      {
        // Payout approval (DESIGN 16): the thresholds from which a payout waits for a second user. ROOT.
        path: '/setting/payoutApproval',
        titleKey: 'routes:payoutApproval',
        perm: 'payout-approval:manage',
        load: () => import('../features/settings/pages/payout-approval-page.tsx'),
      },
      {
        // Callbacks not delivered in the last 30 days (DESIGN 6), resent one by one or in bulk; seen with
        // the orders (collection:view), resent with collection:notify.
        path: '/setting/webhookDeliveries',
        titleKey: 'routes:webhookDeliveries',
        perm: 'collection:view',
        load: () => import('../features/webhook-deliveries/pages/webhook-deliveries-page.tsx'),
      },
      {
        // Test mode's money and data (DESIGN 12): add test funds, delete all test data; linked from the band.
        path: '/setting/test-data',
        titleKey: 'routes:testData',
        perm: 'test-data:manage',
        load: () => import('../features/test-data/pages/test-data-page.tsx'),
      },
      {
        // DESIGN 16: the merchant's users, invitations, roles (ROOT).
        path: '/setting/team',
        titleKey: 'routes:team',
        perm: 'team:manage',
        load: () => import('../features/team/pages/team-page.tsx'),
      },
    ],
  },
];

export const lineExportRoute: PageRoute = {
  path: '/lineExport',
  titleKey: 'routes:lineExport',
  perm: 'export:view',
  icon: 'export',
  load: () => import('../features/exports/pages/exports-page.tsx'),
};

export const contactUsRoute: PageRoute = {
  path: '/contactUs',
  titleKey: 'routes:contactUs',
  perm: 'contact:view',
  icon: 'lx',
  load: () => import('../features/contact/pages/contact-us-page.tsx'),
};

/** Hidden pages inside the layout, open to any signed-in user. */
export const HIDDEN_ROUTES: PageRoute[] = [
  {
    path: '/statusPages',
    titleKey: 'routes:statusPages',
    hidden: true,
    load: () => import('../features/status/pages/status-page.tsx'),
  },
  {
    path: '/authentication',
    titleKey: 'routes:authentication',
    hidden: true,
    load: () => import('../features/settings/pages/authentication-page.tsx'),
  },
];

/** The menu, top to bottom: Dashboard, the groups, Exports, Contact Us. */
export type MenuEntry = { kind: 'page'; route: PageRoute } | { kind: 'group'; group: RouteGroup };

export const MENU_ENTRIES: MenuEntry[] = [
  { kind: 'page', route: dashboardRoute },
  ...ROUTE_GROUPS.map((group): MenuEntry => ({ kind: 'group', group })),
  { kind: 'page', route: lineExportRoute },
  { kind: 'page', route: contactUsRoute },
];

/** Every page of the layout, menu or hidden. */
export const PAGE_ROUTES: PageRoute[] = [
  ...MENU_ENTRIES.flatMap((entry) => (entry.kind === 'page' ? [entry.route] : entry.group.children)),
  ...HIDDEN_ROUTES,
];

export const groupOf = (path: string): RouteGroup | undefined =>
  ROUTE_GROUPS.find((group) => group.children.some((child) => child.path === path));

export const findPageRoute = (path: string): PageRoute | undefined =>
  PAGE_ROUTES.find((route) => route.path === path);
