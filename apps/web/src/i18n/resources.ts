import { LANGUAGES, type Language } from './language.ts';
import { ENTRY_NAMESPACES } from './namespaces.ts';

export type Tree = { [key: string]: string | Tree };

/**
 * Every namespace file under locales/<language>/<namespace>.json, found at build time and loaded when
 * first needed: a new namespace file is picked up without touching code.
 */
const loaders = import.meta.glob<Tree>('./locales/*/*.json', { import: 'default' });

export type NamespaceFiles<T> = Record<Language, Record<string, T>>;

/** The files (their loaders or their texts) by language and namespace. */
export function collectNamespaces<T>(modules: Record<string, T>): NamespaceFiles<T> {
  const byLanguage = Object.fromEntries(LANGUAGES.map((lng) => [lng, {}])) as NamespaceFiles<T>;
  for (const [path, file] of Object.entries(modules)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, language, namespace] = match;
    if ((LANGUAGES as readonly string[]).includes(language)) {
      byLanguage[language as Language][namespace] = file;
    }
  }
  return byLanguage;
}

const namespaceLoaders = collectNamespaces(loaders);

export const namespaces: string[] = [
  ...new Set(LANGUAGES.flatMap((lng) => Object.keys(namespaceLoaders[lng]))),
];

/** The namespaces the layout loads before its first page: all but the entry's. */
export const layoutNamespaces: string[] = namespaces.filter((ns) => !ENTRY_NAMESPACES.includes(ns));

export function loadNamespace(language: string, namespace: string): Promise<Tree> {
  const load = namespaceLoaders[language as Language]?.[namespace];
  return load ? load() : Promise.reject(new Error(`No texts for ${language}/${namespace}`));
}
