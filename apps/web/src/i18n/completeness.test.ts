import { describe, expect, it } from 'vitest';
import { ERROR_CODE_VALUES } from '@paydesk/shared/errors.ts';
import { LANGUAGES } from './language.ts';
import { collectNamespaces, type Tree } from './resources.ts';

const namespaceFiles = collectNamespaces(
  import.meta.glob<Tree>('./locales/*/*.json', { eager: true, import: 'default' }),
);

/**
 * Values that may read the same in English and in another language: brand names, currency codes,
 * placeholders. Keyed "<namespace>:<key>". Keep it short: everything else is translated.
 */
const SAME_AS_ENGLISH_ALLOWED = new Set([
  'common:appName',
  // Brand names of the support channels (Contact us).
  'contact:channels.telegram',
  'contact:channels.whatsapp',
]);

function flatten(tree: Tree, prefix = ''): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value))
      Object.assign(flat, flatten(value, path));
    else flat[path] = value;
  }
  return flat;
}

const placeholders = (value: unknown) =>
  [...String(value).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const english = namespaceFiles.en;
const namespaces = [...new Set(LANGUAGES.flatMap((lng) => Object.keys(namespaceFiles[lng])))].sort();

describe('translations', () => {
  it('finds the namespace files', () => {
    expect(namespaces).toEqual(expect.arrayContaining(['common', 'layout', 'routes', 'auth', 'errors']));
  });

  it.each(LANGUAGES)('%s has every namespace', (language) => {
    expect(Object.keys(namespaceFiles[language]).sort()).toEqual(namespaces);
  });

  describe.each(namespaces)('namespace %s', (namespace) => {
    const base = flatten(english[namespace] ?? {});

    it.each(LANGUAGES)('%s has exactly the English keys', (language) => {
      const keys = Object.keys(flatten(namespaceFiles[language][namespace] ?? {})).sort();
      expect(keys).toEqual(Object.keys(base).sort());
    });

    it.each(LANGUAGES)('%s has no empty or non-text value', (language) => {
      const flat = flatten(namespaceFiles[language][namespace] ?? {});
      const bad = Object.entries(flat).filter(
        ([, value]) => typeof value !== 'string' || value.trim() === '',
      );
      expect(bad).toEqual([]);
    });

    it.each(LANGUAGES.filter((language) => language !== 'en'))(
      '%s translates every value and keeps its placeholders',
      (language) => {
        const flat = flatten(namespaceFiles[language][namespace] ?? {});
        const untranslated = Object.entries(flat)
          .filter(
            ([key, value]) => value === base[key] && !SAME_AS_ENGLISH_ALLOWED.has(`${namespace}:${key}`),
          )
          .map(([key]) => key);
        expect(untranslated).toEqual([]);
        const wrongPlaceholders = Object.entries(flat)
          .filter(([key, value]) => placeholders(value).join() !== placeholders(base[key]).join())
          .map(([key]) => key);
        expect(wrongPlaceholders).toEqual([]);
      },
    );
  });
});

describe('the error catalogue (errors:codes)', () => {
  it.each(LANGUAGES)('%s has a text for every code the server sends, and no other', (language) => {
    const codes = (namespaceFiles[language].errors?.codes ?? {}) as Tree;
    const missing = ERROR_CODE_VALUES.filter(
      (code) => typeof codes[code] !== 'string' || String(codes[code]).trim() === '',
    );
    expect(missing).toEqual([]);
    expect(Object.keys(codes).sort()).toEqual([...ERROR_CODE_VALUES].sort());
  });
});
