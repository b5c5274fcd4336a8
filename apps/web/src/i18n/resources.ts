import type { Resource } from 'i18next';
import { LANGUAGES, type Language } from './language.ts';

type Tree = { [key: string]: string | Tree };

/**
 * Every namespace file under locales/<language>/<namespace>.json, found at build time: a new namespace
 * file is picked up without touching code.
 */
const files = import.meta.glob<Tree>('./locales/*/*.json', { eager: true, import: 'default' });

export type NamespaceFiles = Record<Language, Record<string, Tree>>;

export function collectNamespaces(modules: Record<string, Tree>): NamespaceFiles {
  const byLanguage = Object.fromEntries(LANGUAGES.map((lng) => [lng, {}])) as NamespaceFiles;
  for (const [path, tree] of Object.entries(modules)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, language, namespace] = match;
    if ((LANGUAGES as readonly string[]).includes(language)) {
      byLanguage[language as Language][namespace] = tree;
    }
  }
  return byLanguage;
}

export const namespaceFiles = collectNamespaces(files);
export const resources: Resource = namespaceFiles;
export const namespaces: string[] = [
  ...new Set(LANGUAGES.flatMap((lng) => Object.keys(namespaceFiles[lng]))),
];
