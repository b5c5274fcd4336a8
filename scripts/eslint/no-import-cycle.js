// A small ESLint rule: a server file may not reach itself again through relative runtime imports (type-only
// imports are erased and do not count). eslint-plugin-import-x does this too, but its native resolver
// bindings are not on this project's registry for every platform, so `npm ci` could not install it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SPECIFIER = /^\s*(import|export)\s+(?!type\s)[^;]*?\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/gm;
const SIDE_EFFECT = /^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

function importsOf(text, file) {
  const found = [];
  for (const match of text.matchAll(SPECIFIER)) found.push(match[2]);
  for (const match of text.matchAll(SIDE_EFFECT)) found.push(match[1]);
  return found
    .map((specifier) => path.resolve(path.dirname(file), specifier))
    .filter((target) => /\.tsx?$/.test(target) && existsSync(target));
}

/** @type {import('eslint').Rule.RuleModule} */
export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles between files (apps/server layering).' },
    schema: [],
    messages: { cycle: 'Import cycle: {{path}}.' },
  },
  create(context) {
    return {
      'Program:exit'(node) {
        const start = path.resolve(context.filename);
        const cache = new Map([[start, importsOf(context.sourceCode.text, start)]]);
        const edges = (file) => {
          if (!cache.has(file)) cache.set(file, importsOf(readFileSync(file, 'utf8'), file));
          return cache.get(file);
        };
        const seen = new Set();
        const walk = (file, trail) => {
          for (const next of edges(file)) {
            if (next === start) return [...trail, next];
            if (seen.has(next)) continue;
            seen.add(next);
            const cycle = walk(next, [...trail, next]);
            if (cycle) return cycle;
          }
          return undefined;
        };
        const cycle = walk(start, [start]);
        if (!cycle) return;
        const root = path.resolve(context.cwd ?? process.cwd());
        context.report({
          node,
          messageId: 'cycle',
          data: { path: cycle.map((file) => path.relative(root, file)).join(' -> ') },
        });
      },
    };
  },
};
