// Read by vite.config.ts as well: it puts these namespaces of each language in one chunk and the others
// in another, so the login route loads one small file of texts.

/**
 * The namespaces shown before the layout loads (the login page, the error pages, page titles, the HTTP
 * client's error texts): loaded at start, in the user's language. Every other namespace loads with the
 * layout.
 */
export const ENTRY_NAMESPACES: readonly string[] = ['common', 'routes', 'errors', 'auth', 'layout'];

/** `texts-<language>-entry` or `texts-<language>` for a namespace file, null for any other module. */
export function textsChunkName(moduleId: string): string | null {
  const match = /[\\/]i18n[\\/]locales[\\/]([^\\/]+)[\\/]([^\\/]+)\.json$/.exec(moduleId);
  if (!match) return null;
  const [, language, namespace] = match;
  return ENTRY_NAMESPACES.includes(namespace) ? `texts-${language}-entry` : `texts-${language}`;
}
