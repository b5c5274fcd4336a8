// The settings drawer (spec section 2 defaults), kept in localStorage so a reload keeps them.
import { createStore } from '../lib/create-store.ts';
import { readJson, writeJson } from '../lib/storage.ts';

export const DEFAULT_THEME_COLOR = '#409EFF';

export type LayoutSettings = {
  showSettings: boolean;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  themeColor: string;
  watermarkEnabled: boolean;
  watermarkContent: string;
};

export const DEFAULT_LAYOUT_SETTINGS: LayoutSettings = {
  showSettings: true,
  tagsView: true,
  fixedHeader: false,
  sidebarLogo: true,
  themeColor: DEFAULT_THEME_COLOR,
  watermarkEnabled: false,
  watermarkContent: '',
};

const STORAGE_KEY = 'layoutSettings';

export const layoutSettings = createStore<LayoutSettings>(readJson(STORAGE_KEY, DEFAULT_LAYOUT_SETTINGS));

export function updateLayoutSettings(update: Partial<LayoutSettings>): void {
  layoutSettings.set(update);
  const { showSettings: _fixed, ...stored } = layoutSettings.get();
  writeJson(STORAGE_KEY, stored);
}

export function resetLayoutSettings(): void {
  layoutSettings.set(DEFAULT_LAYOUT_SETTINGS);
  writeJson(STORAGE_KEY, {});
}
