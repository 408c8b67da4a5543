// Floors: which file may import what, by the path an import resolves to, not by how it is spelled.
// import-x/no-restricted-paths needs a TypeScript resolver to see `./x` as `./x.ts` (without one it
// fired only on imports written with a `.ts` extension), and no-restricted-imports matches the
// written specifier and skips dynamic `import()` and `require()`. This rule resolves a relative
// specifier against the importing file's folder (no file-system look-up: a folder prefix decides)
// and checks every way a module is named: static imports (`import type` included), `export ... from`,
// `import x = require()`, `typeof import('x')` types, dynamic `import()` of a literal and `require()`.
//
// Options: { zones: [{ target, except?, tests?, from?, fromExcept?, packages?, message }] }
//   target / except: folders (or files) from the repository root the zone applies to / skips;
//   tests: false skips test files (*.test.ts(x), *.bench.ts) in the target;
//   from / fromExcept: the folders (or files) the target may not import / the holes in them;
//   packages: bare module names the target may not import (a name also covers its subpaths).
import path from 'node:path';

const TEST_FILE = /\.(test|bench)\.(ts|tsx|mts)$/;

const under = (rel, prefixes) => (prefixes ?? []).some((p) => rel === p || rel.startsWith(`${p}/`) || rel.replace(/\.(ts|tsx|mts|js|mjs)$/, '') === p);
const list = (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The specifier a node names when it is a string known at lint time, else null. */
function literal(node) {
  if (!node) return null;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  if (node.type === 'TSLiteralType') return literal(node.literal);
  return null;
}

/** The zone a specifier from `file` breaks, or null. Paths are relative to `root` with `/` separators. */
export function brokenZone(zones, root, file, spec) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  const isTest = TEST_FILE.test(rel);
  const relative = spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..';
  const target = relative ? path.relative(root, path.resolve(path.dirname(file), spec)).split(path.sep).join('/') : null;
  for (const z of zones) {
    if (!under(rel, list(z.target)) || under(rel, list(z.except))) continue;
    if (z.tests === false && isTest) continue;
    if (target !== null) {
      if (under(target, list(z.from)) && !under(target, list(z.fromExcept))) return z;
    } else if (list(z.packages).some((p) => spec === p || spec.startsWith(`${p}/`))) return z;
  }
  return null;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Import floors by resolved path, for every form of import (static, type, dynamic, require).' },
    schema: [{ type: 'object', properties: { zones: { type: 'array' } }, additionalProperties: false }],
    messages: { floor: '{{message}} (`{{spec}}`)' },
  },
  create(context) {
    const zones = context.options[0]?.zones ?? [];
    const file = context.physicalFilename;
    const root = context.cwd;
    const check = (node, source) => {
      const spec = literal(source);
      if (spec === null) return;
      const zone = brokenZone(zones, root, file, spec);
      if (zone) context.report({ node, messageId: 'floor', data: { message: zone.message, spec } });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source),
      ExportNamedDeclaration: (n) => check(n, n.source),
      ExportAllDeclaration: (n) => check(n, n.source),
      ImportExpression: (n) => check(n, n.source),
      // (typescript-eslint 8 names the specifier `source`, older ones `argument`)
      TSImportType: (n) => check(n, n.source !== undefined ? n.source : n.argument),
      TSExternalModuleReference: (n) => check(n, n.expression),
      CallExpression: (n) => {
        const c = n.callee;
        const isRequire = (c.type === 'Identifier' && c.name === 'require') ||
          (c.type === 'MemberExpression' && c.object.type === 'Identifier' && c.object.name === 'require' && c.property.type === 'Identifier' && c.property.name === 'resolve');
        if (isRequire) check(n, n.arguments[0]);
      },
    };
  },
};
