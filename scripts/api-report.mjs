// The API report: one file per package entry (packages/<pkg>/api/<entry>.api.md, in the way API
// Extractor's .api.md files work) listing every exported name with its declaration from the built
// .d.ts, comments dropped and printed by TypeScript's own printer so formatting is normalized.
// Entries come from each package's `exports` map, so a new subpath gets a report without edits here.
//
//   node scripts/api-report.mjs --write [packageDir…]   regenerate (`pnpm api:report` at the root)
//   node scripts/api-report.mjs --check [packageDir…]   compare, print a diff and fail on a change
//
// Without package dirs it covers every packages/* with an `exports` map. Run after a build.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** The `types` file an `exports` value points at, through nested conditions; null for none. */
function typesOf(target) {
  if (typeof target === 'string') return target.endsWith('.d.ts') ? target : null;
  if (!target || typeof target !== 'object') return null;
  if (typeof target.types === 'string') return target.types;
  for (const value of Object.values(target)) {
    const found = typesOf(value);
    if (found) return found;
  }
  return null;
}

/** Every file an `exports` value points at, through nested conditions. */
const leaves = (target) =>
  typeof target === 'string'
    ? [target]
    : target && typeof target === 'object'
      ? Object.values(target).flatMap(leaves)
      : [];

/** `.` is index.api.md, `./status` is status.api.md, `./a/b` is a-b.api.md. */
const reportName = (key) => `${key === '.' ? 'index' : key.replace(/^\.\//, '').replaceAll('/', '-')}.api.md`;

// Byte order, not locale order, so every machine sorts alike; case folded first so `Run` sits by `run`.
const compareNames = (a, b) => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
};

const print = (node) =>
  printer
    .printNode(ts.EmitHint.Unspecified, node, node.getSourceFile())
    // `import("../x.js").Name` names a file inside dist; the name is what a reader reviews.
    .replace(/import\("[^"]*"\)\./g, '');

function declarationText(declaration) {
  if (ts.isVariableDeclaration(declaration)) {
    const list = declaration.parent;
    const keyword = list.flags & ts.NodeFlags.Const ? 'const' : list.flags & ts.NodeFlags.Let ? 'let' : 'var';
    const type = declaration.type ? `: ${print(declaration.type)}` : '';
    // A .d.ts keeps the initializer of a literal constant (`declare const a = 1;`): it is the type.
    const value = declaration.initializer ? ` = ${print(declaration.initializer)}` : '';
    return `${keyword} ${declaration.name.getText()}${type}${value};`;
  }
  if (ts.isSourceFile(declaration)) return `namespace (the module ${declaration.fileName})`;
  // The export modifiers belong to the file that declares the name; the report says `export` once.
  return print(withoutPrivateMembers(declaration)).replace(/^(?:export\s+|default\s+|declare\s+)+/, '');
}

/** A class as its users see it: private fields (`private x;`, `#private;`) are no API. */
function withoutPrivateMembers(declaration) {
  if (!ts.isClassDeclaration(declaration)) return declaration;
  const isPrivate = (member) =>
    (member.name && ts.isPrivateIdentifier(member.name)) ||
    ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Private;
  const members = declaration.members.filter((member) => !isPrivate(member));
  if (members.length === declaration.members.length) return declaration;
  const updated = ts.factory.updateClassDeclaration(
    declaration,
    declaration.modifiers,
    declaration.name,
    declaration.typeParameters,
    declaration.heritageClauses,
    members,
  );
  return ts.setTextRange(updated, declaration);
}

/** Names of this package's own declarations that a signature uses but no entry exports. */
function unexportedReferences(declaration, checker, distDir, exported) {
  const found = new Set();
  const note = (symbol) => {
    if (!symbol) return;
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (target.flags & (ts.SymbolFlags.TypeParameter | ts.SymbolFlags.EnumMember)) return;
    const file = target.declarations?.[0]?.getSourceFile().fileName;
    if (!file || !resolve(file).startsWith(distDir + sep) || exported.has(target)) return;
    found.add(target.getName());
  };
  const visit = (node) => {
    if (ts.isTypeReferenceNode(node)) note(checker.getSymbolAtLocation(node.typeName));
    else if (ts.isExpressionWithTypeArguments(node)) note(checker.getSymbolAtLocation(node.expression));
    else if (ts.isTypeQueryNode(node)) note(checker.getSymbolAtLocation(node.exprName));
    else if (ts.isImportTypeNode(node)) {
      const type = checker.getTypeFromTypeNode(node);
      note(type.aliasSymbol ?? type.getSymbol());
    }
    ts.forEachChild(node, visit);
  };
  visit(declaration);
  return found;
}

/** Every report of one package: `{ file, text, count }` per entry of its `exports` map. */
export function packageReports(packageDir) {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const entries = Object.entries(manifest.exports ?? {})
    .filter(([, target]) => leaves(target).some((file) => /\.[cm]?js$/.test(file)))
    .map(([key, target]) => ({ key, types: typesOf(target) }));
  // An entry the report cannot read would grow the surface unseen: refuse it instead.
  for (const { key, types } of entries) {
    if (key.includes('*'))
      throw new Error(
        `${manifest.name}: the exports pattern "${key}" names no one entry; list entries one by one.`,
      );
    if (!types)
      throw new Error(
        `${manifest.name}: the entry "${key}" has no types condition; add one (types: ./dist/….d.ts).`,
      );
  }
  for (const { types } of entries)
    if (!existsSync(join(packageDir, types)))
      throw new Error(
        `${manifest.name}: ${types} is missing; build the package first (pnpm exec turbo run build).`,
      );
  const program = ts.createProgram({
    rootNames: entries.map(({ types }) => join(packageDir, types)),
    options: {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    },
  });
  const checker = program.getTypeChecker();
  const exportsOf = (types) => {
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(join(packageDir, types)));
    return moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
  };
  const targetOf = (symbol) =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const exported = new Set(entries.flatMap(({ types }) => exportsOf(types).map(targetOf)));
  const distDir = resolve(packageDir, 'dist');

  return entries.map(({ key, types }) => {
    const specifier = key === '.' ? manifest.name : `${manifest.name}/${key.replace(/^\.\//, '')}`;
    const symbols = exportsOf(types).sort((a, b) => compareNames(a.getName(), b.getName()));
    const unexported = new Set();
    const blocks = symbols.map((symbol) => {
      const target = targetOf(symbol);
      const declarations = [...(target.declarations ?? [])].sort(
        (a, b) => compareNames(a.getSourceFile().fileName, b.getSourceFile().fileName) || a.pos - b.pos,
      );
      const lines = declarations.map((declaration) => {
        for (const name of unexportedReferences(declaration, checker, distDir, exported))
          unexported.add(name);
        // A name its docs mark `@experimental` may still change: the report says so beside it.
        const experimental = ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'experimental');
        return `${experimental ? '// @experimental\n' : ''}export ${declarationText(declaration)}`;
      });
      if (target.getName() !== symbol.getName())
        lines.unshift(`// ${symbol.getName()} is ${target.getName()}`);
      return lines.join('\n');
    });
    // A `declare module 'react'` or `declare global` in the entry changes types outside it: shown too.
    const augmentations = program
      .getSourceFile(join(packageDir, types))
      .statements.filter(
        (statement) =>
          ts.isModuleDeclaration(statement) &&
          (ts.isStringLiteral(statement.name) || statement.flags & ts.NodeFlags.GlobalAugmentation),
      )
      .map(print);
    blocks.push(...augmentations);
    const missing = [...unexported].sort(compareNames);
    const text = [
      `## API Report File for "${specifier}"`,
      '',
      `> Do not edit this file. \`pnpm api:report\` writes it from \`${types.replace(/^\.\//, '')}\`; the test command fails when it differs.`,
      '',
      `${symbols.length} ${symbols.length === 1 ? 'name' : 'names'}.`,
      '',
      '```ts',
      blocks.join('\n\n'),
      '```',
      '',
      ...(missing.length
        ? [
            `Used in these signatures but exported from no entry of ${manifest.name}: ${missing.map((n) => `\`${n}\``).join(', ')}.`,
            '',
          ]
        : []),
    ].join('\n');
    return { specifier, file: join(packageDir, 'api', reportName(key)), text, count: symbols.length };
  });
}

function defaultPackages() {
  const dir = join(root, 'packages');
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((packageDir) => {
      const manifestPath = join(packageDir, 'package.json');
      return existsSync(manifestPath) && JSON.parse(readFileSync(manifestPath, 'utf8')).exports;
    })
    .sort();
}

function diff(file, expected) {
  const scratch = mkdtempSync(join(tmpdir(), 'api-report-'));
  try {
    const fresh = join(scratch, 'fresh.api.md');
    writeFileSync(fresh, expected);
    const shown = relative(root, file);
    const before = existsSync(file) ? file : '/dev/null';
    const result = spawnSync(
      'diff',
      ['-u', '--label', `${shown} (checked in)`, '--label', `${shown} (built)`, before, fresh],
      {
        encoding: 'utf8',
      },
    );
    return result.stdout || result.error?.message || '';
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function main(args) {
  const mode = args.includes('--write') ? 'write' : args.includes('--check') ? 'check' : null;
  if (!mode) throw new Error('usage: api-report.mjs --write|--check [packageDir…]');
  const dirs = args.filter((arg) => !arg.startsWith('--')).map((dir) => resolve(dir));
  let changed = 0;
  for (const packageDir of dirs.length ? dirs : defaultPackages()) {
    const reports = packageReports(packageDir);
    const apiDir = join(packageDir, 'api');
    const expected = new Set(reports.map(({ file }) => file));
    const stale = existsSync(apiDir)
      ? readdirSync(apiDir)
          .filter((name) => name.endsWith('.api.md'))
          .map((name) => join(apiDir, name))
          .filter((file) => !expected.has(file))
      : [];
    for (const { specifier, file, text, count } of reports) {
      const current = existsSync(file) ? readFileSync(file, 'utf8') : null;
      if (mode === 'write') {
        mkdirSync(apiDir, { recursive: true });
        if (current !== text) writeFileSync(file, text);
        console.log(`${String(count).padStart(4)}  ${specifier}`);
      } else if (current !== text) {
        changed += 1;
        process.stdout.write(diff(file, text));
      }
    }
    for (const file of stale) {
      if (mode === 'write') rmSync(file);
      else {
        changed += 1;
        console.log(`${relative(root, file)}: no entry of the exports map has this report any more.`);
      }
    }
  }
  if (changed) {
    console.error(
      `\nThe public API differs from its checked-in report (${changed} ${changed === 1 ? 'file' : 'files'}): ` +
        'run `pnpm api:report` and review the diff; commit it if the change is meant.',
    );
    process.exitCode = 1;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
