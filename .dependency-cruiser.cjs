// The layering the folders show, checked on the TypeScript sources (`pnpm run depcheck`, part of
// the test command): no import cycles; core reaches nothing of a platform; the platform packages
// reach core only through the entries its export map publishes.
const coreExports = require('./packages/core/package.json').exports;

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Where `@toolctx/core` and its subpaths resolve (each entry's types and code in dist/): the only
// core files browser and edge may depend on.
const coreEntries = Object.values(coreExports)
  .flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)))
  .filter((target) => target.startsWith('./dist/'))
  .map((target) => `^packages/core/${escapeRegExp(target.slice(2))}$`);

// Modules that exist only where there is a DOM (or a browser driving one): the browser package's
// territory, never core's.
const domOnly =
  '^(idb|axe-core|fake-indexeddb|playwright|playwright-core|@vitest/browser[^/]*|vitest/browser)(/|$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'An import cycle, in any package: a module depends, through others, on itself.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-no-platform-package',
      comment: 'Core is what browser and edge build on; it imports neither.',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: '^(packages/(browser|edge)/|@toolctx/(browser|edge)(/|$))' },
    },
    {
      name: 'core-no-node-builtins',
      comment: 'Core is web standards only: no `node:` built-in (it runs in workerd and browsers).',
      severity: 'error',
      // platform-neutral.check.ts imports node:fs under @ts-expect-error, to prove it cannot compile.
      from: { path: '^packages/core/', pathNot: '^packages/core/src/platform-neutral[.]check[.]ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-no-dom-modules',
      comment: 'Core has no DOM: modules that need one belong to @toolctx/browser.',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: { path: domOnly },
    },
    {
      name: 'core-otel-only-in-its-entry',
      comment:
        "@opentelemetry/api is an optional peer: only core's /otel entry imports it, so every other entry loads without it installed.",
      severity: 'error',
      from: { path: '^packages/core/src/', pathNot: '^packages/core/src/otel/' },
      to: { path: '(^|/)@opentelemetry/' },
    },
    {
      name: 'platform-through-core-entries',
      comment:
        "browser and edge import core as users do, through @toolctx/core and its export map's subpaths: never a relative path into packages/core, nor one of its files.",
      severity: 'error',
      from: { path: '^packages/(browser|edge)/' },
      to: { path: '^packages/core/', pathNot: coreEntries },
    },
    {
      name: 'platform-no-unpublished-core-path',
      comment:
        'A @toolctx/core path its export map does not publish (such as @toolctx/core/dist/… or /src/…) resolves nowhere; say which entry you mean.',
      severity: 'error',
      from: { path: '^packages/(browser|edge)/' },
      to: { couldNotResolve: true, path: '^@toolctx/core(/|$)' },
    },
    {
      name: 'edge-no-sibling-internals',
      comment:
        "An edge folder (door/, http/, mcp/, run-host/, stores/) reaches another only through its index.ts, or the doors' shared folder door/: never into the other's files. Tests may.",
      severity: 'error',
      from: { path: '^packages/edge/src/(door|http|mcp|run-host|stores)/', pathNot: '[.]test[.]ts$' },
      to: {
        path: '^packages/edge/src/[^/]+/',
        pathNot: [
          '^packages/edge/src/$1/',
          '^packages/edge/src/door/',
          '^packages/edge/src/[^/]+/index[.]ts$',
        ],
      },
    },
    {
      name: 'edge-door-shared-below',
      comment:
        'packages/edge/src/door/ is what every door and the run host share (the wire answer, errors, body reading, identity, authentication): it imports no other edge folder, so none of them can form a loop through it.',
      severity: 'error',
      from: { path: '^packages/edge/src/door/', pathNot: '[.]test[.]ts$' },
      to: { path: '^packages/edge/src/', pathNot: '^packages/edge/src/door/' },
    },
  ],
  options: {
    // Type-only imports count: a cycle of types is still a cycle of concepts.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    // Built output (core's dist, where its entries resolve) and installed packages are endpoints.
    doNotFollow: { path: ['node_modules', '(^|/)dist/'] },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'default'],
      extensions: ['.ts', '.d.ts', '.js', '.mjs'],
    },
  },
};
