// The tags view: every opened page is a tab; pinned (affix) pages stay. Kept for the browser tab's life.
import { createStore } from '../lib/create-store.ts';
import { readJson, writeJson } from '../lib/storage.ts';

export type VisitedView = {
  path: string;
  /** Path with its query, so a tab reopens the list with the same filters. */
  fullPath: string;
  titleKey: string;
  affix: boolean;
};

const STORAGE_KEY = 'tagsView';

const stored = readJson<{ views: VisitedView[] }>(STORAGE_KEY, { views: [] }, 'session');
export const tagsView = createStore<{ views: VisitedView[] }>({
  views: Array.isArray(stored.views) ? stored.views : [],
});

function save(views: VisitedView[]) {
  tagsView.set({ views });
  writeJson(STORAGE_KEY, { views }, 'session');
}

/** Pinned views first, in the order given, then the others as they were. */
export function initAffixViews(affix: VisitedView[]): void {
  const others = tagsView.get().views.filter((view) => !affix.some((a) => a.path === view.path));
  save([...affix, ...others.filter((view) => !view.affix)]);
}

export function addView(view: VisitedView): void {
  const views = tagsView.get().views;
  const index = views.findIndex((existing) => existing.path === view.path);
  if (index === -1) return save([...views, view]);
  const existing = views[index];
  if (existing.fullPath === view.fullPath && existing.titleKey === view.titleKey) return;
  save(views.map((v, i) => (i === index ? { ...view, affix: existing.affix || view.affix } : v)));
}

export const closeView = (path: string): void =>
  save(tagsView.get().views.filter((view) => view.affix || view.path !== path));

export const closeOtherViews = (path: string): void =>
  save(tagsView.get().views.filter((view) => view.affix || view.path === path));

export function closeViewsLeft(path: string): void {
  const views = tagsView.get().views;
  const index = views.findIndex((view) => view.path === path);
  save(views.filter((view, i) => view.affix || i >= index));
}

export function closeViewsRight(path: string): void {
  const views = tagsView.get().views;
  const index = views.findIndex((view) => view.path === path);
  save(views.filter((view, i) => view.affix || i <= index));
}

export const closeAllViews = (): void => save(tagsView.get().views.filter((view) => view.affix));

export const resetViews = (): void => save([]);
