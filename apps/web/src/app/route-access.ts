// Which routes a user may open: the static routes filtered by the user's permissions (spec section 6).
import { MENU_ENTRIES, PAGE_ROUTES, type PageRoute, type RouteGroup } from './routes.ts';

export const canOpen = (route: Pick<PageRoute, 'perm'>, perms: readonly string[]): boolean =>
  !route.perm || perms.includes(route.perm);

export const allowedRoutes = (perms: readonly string[]): PageRoute[] =>
  PAGE_ROUTES.filter((route) => canOpen(route, perms));

/** The menu a user sees: entries they may open, groups with at least one such child. */
export type AllowedMenuEntry =
  { kind: 'page'; route: PageRoute } | { kind: 'group'; group: RouteGroup; children: PageRoute[] };

export function allowedMenu(perms: readonly string[]): AllowedMenuEntry[] {
  const menu: AllowedMenuEntry[] = [];
  for (const entry of MENU_ENTRIES) {
    if (entry.kind === 'page') {
      if (canOpen(entry.route, perms)) menu.push(entry);
      continue;
    }
    const children = entry.group.children.filter((child) => canOpen(child, perms));
    if (children.length) menu.push({ kind: 'group', group: entry.group, children });
  }
  return menu;
}

/**
 * Where a group's own path (/recharge) leads: the spec's target when the user may open it, else the
 * group's first page they may open, else /403.
 */
export function groupRedirect(group: RouteGroup, perms: readonly string[]): string {
  const target = group.children.find((child) => child.path === group.redirect);
  if (target && canOpen(target, perms)) return target.path;
  return group.children.find((child) => canOpen(child, perms))?.path ?? '/403';
}
