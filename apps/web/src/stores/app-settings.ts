// Client settings kept under the spec's localStorage keys: device, size, sidebarStatus, activeTop
// (language is kept by i18n/index.ts).
import { createStore } from '../lib/create-store.ts';
import { readStorage, writeStorage } from '../lib/storage.ts';

export type Device = 'desktop' | 'mobile';
export type ComponentSize = 'default' | 'large' | 'small';

export const SIZES: ComponentSize[] = ['default', 'large', 'small'];

type AppSettings = {
  device: Device;
  size: ComponentSize;
  /** The desktop sidebar: opened (wide, with labels) or closed (icons only). */
  sidebarOpened: boolean;
  /** Set when the sidebar was opened or closed without its transition (switching to mobile). */
  sidebarWithoutAnimation: boolean;
  /** On a narrow window the menu is a drawer over the page. */
  mobileMenuOpen: boolean;
  activeTop: string;
};

const readSize = (): ComponentSize => {
  const stored = readStorage('size');
  return SIZES.includes(stored as ComponentSize) ? (stored as ComponentSize) : 'default';
};

export const appSettings = createStore<AppSettings>({
  device: readStorage('device') === 'mobile' ? 'mobile' : 'desktop',
  size: readSize(),
  sidebarOpened: readStorage('sidebarStatus') === 'opened',
  sidebarWithoutAnimation: false,
  mobileMenuOpen: false,
  activeTop: readStorage('activeTop') ?? '',
});

export function setSidebar(opened: boolean, { withoutAnimation = false } = {}): void {
  writeStorage('sidebarStatus', opened ? 'opened' : 'closed');
  appSettings.set({ sidebarOpened: opened, sidebarWithoutAnimation: withoutAnimation });
}

export const toggleSidebar = (): void => setSidebar(!appSettings.get().sidebarOpened);

export function setDevice(device: Device): void {
  writeStorage('device', device);
  appSettings.set({ device, mobileMenuOpen: false });
}

export const setMobileMenuOpen = (open: boolean): void => appSettings.set({ mobileMenuOpen: open });

export function setSize(size: ComponentSize): void {
  writeStorage('size', size);
  appSettings.set({ size });
}

export function setActiveTop(activeTop: string): void {
  if (appSettings.get().activeTop === activeTop) return;
  writeStorage('activeTop', activeTop);
  appSettings.set({ activeTop });
}

/** antd calls the default size "middle". */
export const antdSize = (size: ComponentSize) => (size === 'default' ? 'middle' : size);
