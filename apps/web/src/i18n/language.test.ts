import { describe, expect, it } from 'vitest';
import { DEFAULT_LANGUAGE, resolveLanguage } from './language.ts';

describe('the language rule (spec section 1)', () => {
  it('en selects English and vi Vietnamese', () => {
    expect(resolveLanguage('en')).toBe('en');
    expect(resolveLanguage('vi')).toBe('vi');
  });

  it('zh-cn, anything else and nothing select Chinese, the default', () => {
    expect(DEFAULT_LANGUAGE).toBe('zh-cn');
    for (const value of ['zh-cn', 'EN', 'en-US', 'fr', 'vi-VN', '', null, undefined, 42]) {
      expect(resolveLanguage(value)).toBe('zh-cn');
    }
  });
});

describe('the stored language', () => {
  it('is read from localStorage "language" at start and written on change', async () => {
    localStorage.setItem('language', 'vi');
    const { vi } = await import('vitest');
    vi.resetModules();
    const i18nModule = await import('./index.ts');
    await i18nModule.entryTextsLoaded;
    expect(i18nModule.currentLanguage()).toBe('vi');
    expect(document.documentElement.lang).toBe('vi');
    expect(i18nModule.default.t('routes:dashboard')).toBe('Tổng quan');

    await i18nModule.changeLanguage('en');
    expect(localStorage.getItem('language')).toBe('en');
    expect(i18nModule.default.t('routes:dashboard')).toBe('Dashboard');

    await i18nModule.changeLanguage('de');
    expect(localStorage.getItem('language')).toBe('zh-cn');
    expect(i18nModule.default.t('routes:dashboard')).toBe('首页');
    expect(document.documentElement.lang).toBe('zh-CN');
  });

  it('defaults to Chinese when nothing is stored', async () => {
    const { vi } = await import('vitest');
    vi.resetModules();
    const i18nModule = await import('./index.ts');
    await i18nModule.entryTextsLoaded;
    expect(i18nModule.currentLanguage()).toBe('zh-cn');
    expect(i18nModule.default.t('auth:submit')).toBe('登录');
  });
});

describe('dates follow the language', () => {
  it("switches dayjs's locale with the console's", async () => {
    const { vi } = await import('vitest');
    vi.resetModules();
    const { default: dayjs } = await import('dayjs');
    const i18nModule = await import('./index.ts');
    await i18nModule.entryTextsLoaded;
    await import('./dayjs-locale.ts');
    expect(dayjs.locale()).toBe('zh-cn');
    await i18nModule.changeLanguage('vi');
    expect(dayjs.locale()).toBe('vi');
    expect(dayjs('2024-05-01').format('MMMM')).toBe('tháng 5');
    await i18nModule.changeLanguage('en');
    expect(dayjs.locale()).toBe('en');
  });
});
