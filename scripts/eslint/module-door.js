// Small ESLint rules for the server's module doors (apps/server/README.md) and the console's feature doors.
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
const WEB_SRC = `${path.sep}apps${path.sep}web${path.sep}src${path.sep}`;

/** The part a file belongs to ('ledger' for .../src/modules/ledger/x.ts), or undefined. */
function partOf(file, src, folder) {
  const inside = path.relative(path.join(src, folder), file);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return undefined;
  const [name, ...rest] = inside.split(path.sep);
  return rest.length > 0 ? name : undefined;
}
const moduleOf = (file, src) => partOf(file, src, 'modules');

const isRepositoryFile = (specifier) => /\.repository(\.ts)?$/.test(specifier);
const REPOSITORY_NAME = /Repository$/;

/**
 * A door rule: below `root` (a path part such as /apps/server/src/), the parts of `folder` are reached from
 * outside only through their index.ts. `mayPass(file, target, node)` lets an import through where a part
 * allows it (a test, a lazily loaded page).
 */
function doorRule({ root, folder, what, mayPass = () => false }) {
  return {
    meta: {
      type: 'problem',
      docs: { description: `Another ${what} is used only through its index.ts.` },
      schema: [],
      messages: {
        door: `Another ${what} is used only through its index.ts ('{{part}}/index.ts'), not '{{specifier}}'.`,
      },
    },
    create(context) {
      const file = path.resolve(context.filename);
      const at = file.lastIndexOf(root);
      if (at < 0) return {};
      const src = file.slice(0, at + root.length - 1);
      const own = partOf(file, src, folder);
      const check = (node) => {
        const specifier = node.source?.value;
        if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
        const target = path.resolve(path.dirname(file), specifier);
        const other = partOf(target, src, folder);
        if (other === undefined || other === own) return;
        if (target === path.join(src, folder, other, 'index.ts')) return;
        if (mayPass(file, target, node)) return;
        context.report({ node: node.source, messageId: 'door', data: { part: other, specifier } });
      };
      return {
        ImportDeclaration: check,
        ExportNamedDeclaration: check,
        ExportAllDeclaration: check,
        ImportExpression: check,
      };
    },
  };
}

/** @type {import('eslint').Rule.RuleModule} */
export const moduleDoor = doorRule({
  root: SERVER_SRC,
  folder: 'modules',
  what: 'module',
  mayPass: (file, target) => file.endsWith('.test.ts') && isRepositoryFile(target),
});

/**
 * feature-door: in the console, a feature (apps/web/src/features/<name>/) is used by another feature only
 * through its index.ts, which names what it offers (a page's component, a hook, a button); its api/,
 * components/ and pages/ are its own. The router (app/) loads a page lazily, by `import()` of its file (one
 * chunk a page); tests may reach into another feature (to render what it offers beside the page under test).
 * @type {import('eslint').Rule.RuleModule}
 */
export const featureDoor = doorRule({
  root: WEB_SRC,
  folder: 'features',
  what: 'feature',
  mayPass: (file, target, node) =>
    /\.test\.tsx?$/.test(file) ||
    (node.type === 'ImportExpression' &&
      target.split(path.sep).at(-2) === 'pages' &&
      !file.includes(`${path.sep}features${path.sep}`)),
});

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
