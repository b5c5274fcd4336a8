// A small ESLint rule: outside a server module, its files are reached only through its index.ts
// (apps/server/README.md). The import is resolved against the importing file, so it holds from any depth
// (a module's subfolders, cli/, jobs/, app.ts), which a pattern on the import text alone cannot see.
import path from 'node:path';

const SERVER_SRC = `${path.sep}apps${path.sep}server${path.sep}src${path.sep}`;

/** The module a file belongs to ('ledger' for .../src/modules/ledger/x.ts), or undefined. */
function moduleOf(file, src) {
  const inside = path.relative(path.join(src, 'modules'), file);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return undefined;
  const [name, ...rest] = inside.split(path.sep);
  return rest.length > 0 ? name : undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const moduleDoor = {
  meta: {
    type: 'problem',
    docs: { description: 'Another server module is used only through its index.ts.' },
    schema: [],
    messages: {
      door: "Another module is used only through its index.ts ('{{module}}/index.ts'), not '{{specifier}}'.",
    },
  },
  create(context) {
    const file = path.resolve(context.filename);
    const at = file.lastIndexOf(SERVER_SRC);
    if (at < 0) return {};
    const src = file.slice(0, at + SERVER_SRC.length - 1);
    const own = moduleOf(file, src);
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), specifier);
      const other = moduleOf(target, src);
      if (other === undefined || other === own) return;
      if (target === path.join(src, 'modules', other, 'index.ts')) return;
      context.report({ node: node.source, messageId: 'door', data: { module: other, specifier } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
