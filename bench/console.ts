import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

// DESIGN section 8, the console: the JavaScript and CSS of the login route under 170 KB gzip, each
// page's own chunks under 80 KB gzip beyond the shared layout, and the list kit's shared chunk (table,
// filters, calendar, drawer: apps/web/src/components/list-page/chunk.ts) under 120 KB of its own, not
// counted in the pages that load it. Builds the console with Vite's manifest
// into a directory of its own and counts gzip bytes as e2e/bundle-size.spec.ts does (gzip at Node's
// default level of each file the browser fetches). Sizes, not timings: the same build gives the same
// figures.

const LOGIN_ROUTE_TARGET = 170 * 1024;
const PAGE_TARGET = 80 * 1024;
const LIST_KIT_TARGET = 120 * 1024;
const LIST_KIT_CHUNK = 'list-kit';

const WEB_DIR = path.resolve(import.meta.dirname, '..', 'apps', 'web');
const ENTRY = 'index.html';
const LAYOUT = 'src/layout/app-layout.tsx';
const LOGIN_PAGE = 'src/features/auth/pages/login-page.tsx';
// Pages outside the layout: what they add is counted beyond the entry alone.
const OUTSIDE_LAYOUT = new Set([LOGIN_PAGE, 'src/features/errors/pages/error-page.tsx']);
const LANGUAGES = ['zh-cn', 'en', 'vi'] as const;

type Chunk = {
  file: string;
  name?: string;
  src?: string;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};
type Manifest = Record<string, Chunk>;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function build(outDir: string): Manifest {
  const result = spawnSync('npx', ['vite', 'build', '--manifest', '--outDir', outDir, '--emptyOutDir'], {
    cwd: WEB_DIR,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`vite build failed (${result.status})`);
  return JSON.parse(readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

export async function runConsole(): Promise<void> {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'paydesk-console-'));
  try {
    console.log('building the console (vite build --manifest)...');
    const manifest = build(outDir);
    report(manifest, outDir);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

function report(manifest: Manifest, outDir: string) {
  const gzipCache = new Map<string, number>();
  const gzip = (file: string) => {
    let size = gzipCache.get(file);
    if (size === undefined) {
      size = gzipSync(readFileSync(path.join(outDir, file))).length;
      gzipCache.set(file, size);
    }
    return size;
  };
  const total = (files: Iterable<string>) => [...files].reduce((sum, file) => sum + gzip(file), 0);

  /** The files (JS and CSS) of these chunks and of what they import statically. */
  const staticFiles = (keys: string[]) => {
    const files = new Set<string>();
    const seen = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || seen.has(key)) return;
      seen.add(key);
      files.add(chunk.file);
      chunk.css?.forEach((css) => files.add(css));
      chunk.imports?.forEach(visit);
    };
    keys.forEach(visit);
    return files;
  };

  /**
   * Everything a page may load beyond `shared`: its static imports and, transitively, what its own chunks
   * import on demand (a chart library imported when the page mounts counts as the page's).
   */
  const ownFiles = (key: string, shared: Set<string>) => {
    const files = new Set<string>();
    const pending = [key];
    const seen = new Set<string>();
    while (pending.length) {
      const next = pending.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      for (const file of staticFiles([next])) {
        if (shared.has(file)) continue;
        files.add(file);
        const chunkKey = Object.keys(manifest).find((k) => manifest[k].file === file);
        manifest[chunkKey ?? '']?.dynamicImports?.forEach((d) => pending.push(d));
      }
    }
    return files;
  };

  // The login route: the entry, the login page, and the entry's texts in the page's language (loaded at
  // start: the language is the user's, known in the browser only).
  const entry = staticFiles([ENTRY]);
  const loginRoute = staticFiles([ENTRY, LOGIN_PAGE]);
  // Chunks of texts are named by apps/web/src/i18n/namespaces.ts (textsChunkName).
  const chunkNamed = (name: string) => Object.keys(manifest).filter((key) => manifest[key].name === name);
  const textsOf = (language: string) => staticFiles(chunkNamed(`texts-${language}-entry`));
  console.log(`\nLogin route, JavaScript + CSS (gzip), target < ${kb(LOGIN_ROUTE_TARGET)}:`);
  for (const language of LANGUAGES) {
    const bytes = total(new Set([...loginRoute, ...textsOf(language)]));
    const verdict = bytes < LOGIN_ROUTE_TARGET ? 'ok' : 'OVER';
    console.log(
      `  ${language.padEnd(6)}${kb(bytes).padStart(10)}   ${(bytes / LOGIN_ROUTE_TARGET).toFixed(2)} of the target  ${verdict}`,
    );
  }
  console.log('  its files (zh-cn, the default language):');
  for (const file of [...new Set([...loginRoute, ...textsOf('zh-cn')])].sort((a, b) => gzip(b) - gzip(a))) {
    console.log(`    ${kb(gzip(file)).padStart(9)}  ${file}`);
  }

  const layout = staticFiles([ENTRY, LAYOUT]);
  const layoutTexts = staticFiles(chunkNamed('texts-zh-cn'));
  console.log(
    `\nShared layout (the entry, the layout and their static imports): ${kb(total(layout))}` +
      ` (+ ${kb(total([...layoutTexts].filter((file) => !layout.has(file))))} of texts in zh-cn)`,
  );

  // The list kit: its chunk and what it imports beyond the layout, counted once against its own budget.
  const kitKeys = chunkNamed(LIST_KIT_CHUNK);
  const kit = new Set(kitKeys.flatMap((key) => [...ownFiles(key, layout)]));
  const kitBytes = total(kit);
  console.log(
    `\nList kit (the shared chunk "${LIST_KIT_CHUNK}" and what it imports beyond the layout, gzip), target < ${kb(LIST_KIT_TARGET)}:` +
      `\n  ${kb(kitBytes).padStart(10)}   ${(kitBytes / LIST_KIT_TARGET).toFixed(2)} of the target  ${kitKeys.length === 0 ? 'MISSING' : kitBytes < LIST_KIT_TARGET ? 'ok' : 'OVER'}`,
  );
  for (const file of [...kit].sort((a, b) => gzip(b) - gzip(a))) {
    console.log(`    ${kb(gzip(file)).padStart(9)}  ${file}`);
  }
  const beyondLayoutAndKit = new Set([...layout, ...kit]);

  const pages = Object.keys(manifest)
    .filter((key) => /^src\/features\/[^/]+\/pages\/[^/]+\.tsx$/.test(key) && manifest[key].isDynamicEntry)
    .sort();
  const ownByPage = new Map(
    pages.map((key) => [key, ownFiles(key, OUTSIDE_LAYOUT.has(key) ? entry : beyondLayoutAndKit)]),
  );
  const pagesLoading = (file: string) => pages.filter((key) => ownByPage.get(key)!.has(file)).length;
  console.log(
    `\nEach page's own chunks beyond the shared layout and the list kit (gzip), target < ${kb(PAGE_TARGET)}.` +
      '\n  first visit: everything the page loads that the shared layout has not (static imports and what it' +
      '\n    imports on demand), chunks it shares with other pages included: the figure checked against the target.' +
      "\n  static: the part of it the page's first render needs." +
      '\n  alone: the chunks no other page loads (what the page costs once a page like it was visited).' +
      '\n  (login and error pages: beyond the entry, as they are outside the layout)',
  );
  console.log(
    `  ${'page'.padEnd(40)}${'first visit'.padStart(13)}        ${'static'.padStart(9)}${'alone'.padStart(10)}  list kit`,
  );
  for (const key of pages) {
    const files = ownByPage.get(key)!;
    const bytes = total(files);
    const atFirst = total([...staticFiles([key])].filter((file) => files.has(file)));
    const alone = total([...files].filter((file) => pagesLoading(file) === 1));
    const largest = [...files].sort((a, b) => gzip(b) - gzip(a)).slice(0, 3);
    const verdict = bytes < PAGE_TARGET ? 'ok' : 'OVER';
    const name = key.replace(/^src\/features\//, '').replace(/\.tsx$/, '');
    const usesKit = kitKeys.some((kitKey) => staticFiles([key]).has(manifest[kitKey].file));
    console.log(
      `  ${name.padEnd(40)}${kb(bytes).padStart(13)}  ${verdict.padEnd(4)}  ${kb(atFirst).padStart(9)}${kb(alone).padStart(10)}  ${usesKit ? '+ kit' : '     '}` +
        `   largest: ${largest.map((file) => `${path.basename(file)} ${kb(gzip(file))}`).join(', ')}`,
    );
  }
}
