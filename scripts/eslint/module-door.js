// Two small ESLint rules for the server's module doors (apps/server/README.md).
// module-door: outside a server module, its files are reached only through its index.ts. The import is
// resolved against the importing file, so it holds from any depth (a module's subfolders, cli/, jobs/,
// app.ts), which a pattern on the import text alone cannot see. Tests (`*.test.ts`) may also import a
// module's `*.repository.ts` directly, to set up rows or check the SQL against a scan; apps/server/test
// is outside src and not held by this rule.
// index-exports-no-repository: a module's index.ts exports its services and types, never its repository
// (nothing from a `*.repository.ts` but types, nothing named `*Repository`): another module asks the
// service, and the SQL stays behind it.
import path from 'node:path';

const SERVER_SRC = `${path.sep}apps${path.sep}server${path.sep}src${path.sep}`;

/** The module a file belongs to ('ledger' for .../src/modules/ledger/x.ts), or undefined. */
function moduleOf(file, src) {
  const inside = path.relative(path.join(src, 'modules'), file);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return undefined;
  const [name, ...rest] = inside.split(path.sep);
  return rest.length > 0 ? name : undefined;
}

const isRepositoryFile = (specifier) => /\.repository(\.ts)?$/.test(specifier);
const REPOSITORY_NAME = /Repository$/;

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
    const isTest = file.endsWith('.test.ts');
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), specifier);
      const other = moduleOf(target, src);
      if (other === undefined || other === own) return;
      if (target === path.join(src, 'modules', other, 'index.ts')) return;
      if (isTest && isRepositoryFile(target)) return;
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

/** @type {import('eslint').Rule.RuleModule} */
export const indexExportsNoRepository = {
  meta: {
    type: 'problem',
    docs: { description: "A server module's index.ts exports its services and types, never its repository." },
    schema: [],
    messages: {
      repository:
        "A module's index.ts exports its service and types, never its repository ('{{name}}'): export a service " +
        'method or a read function of its service file, and keep the SQL in the repository.',
    },
  },
  create(context) {
    const file = path.resolve(context.filename);
    const at = file.lastIndexOf(SERVER_SRC);
    if (at < 0) return {};
    const src = file.slice(0, at + SERVER_SRC.length - 1);
    const own = moduleOf(file, src);
    if (own === undefined || file !== path.join(src, 'modules', own, 'index.ts')) return {};
    /** Values this index.ts imports from a repository file: exporting them is re-exporting it. */
    const fromRepository = new Set();
    const report = (node, name) => context.report({ node, messageId: 'repository', data: { name } });
    const isType = (node) => node.exportKind === 'type' || node.importKind === 'type';
    return {
      ImportDeclaration(node) {
        if (isType(node) || !isRepositoryFile(String(node.source.value))) return;
        for (const s of node.specifiers) if (!isType(s)) fromRepository.add(s.local.name);
      },
      ExportAllDeclaration(node) {
        if (!isType(node) && isRepositoryFile(String(node.source.value))) report(node, node.source.value);
      },
      ExportNamedDeclaration(node) {
        const repositorySource = node.source && isRepositoryFile(String(node.source.value));
        for (const s of node.specifiers) {
          const local = s.local.name ?? s.local.value;
          const exported = s.exported.name ?? s.exported.value;
          if (isType(node) || isType(s)) continue;
          if (repositorySource || REPOSITORY_NAME.test(local) || REPOSITORY_NAME.test(exported)) {
            report(s, exported);
          } else if (!node.source && fromRepository.has(local)) report(s, exported);
        }
        const declared = node.declaration?.declarations ?? [];
        for (const d of declared) {
          if (d.id.type === 'Identifier' && REPOSITORY_NAME.test(d.id.name)) report(d, d.id.name);
        }
        if (node.declaration?.id && REPOSITORY_NAME.test(node.declaration.id.name ?? '')) {
          report(node.declaration, node.declaration.id.name);
        }
      },
    };
  },
};
