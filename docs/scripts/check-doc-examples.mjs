// Every ```ts (or ```tsx) block under an `@example` in a doc comment of packages/*/src (tests
// aside) must compile: each is type-checked as a module of its own, importing the published names
// (`@toolctx/core`, …) that resolve to the built packages as docs/examples do, with the platform
// types of where that code runs (a ```tsx block: React in the page). A failure names the source
// file and line.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const docs = fileURLToPath(new URL('../', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));

/** Where an example's code runs, by the file it documents; the first match wins. */
const environments = [
  { match: /^packages\/edge\//, config: 'tsconfig.worker.json' },
  { match: /^packages\/browser\//, config: 'tsconfig.web.json' },
  // Core runs anywhere; its examples read as a Node host would write them.
  { match: /^packages\/core\//, config: 'tsconfig.node.json' },
];
/** A ```tsx block is React in the web page, whichever package documents it. */
const tsxConfig = 'tsconfig.react.json';
// A dot folder (`.wrangler`, which a `wrangler dev` of the tests writes and deletes under src) is
// never source.
const notDocumented = /(\.test\.ts|\.check\.ts|test-helpers\.ts|fixture\.worker\.ts)$|\/test-utils\/|\/\./;

async function sourceFiles() {
  const files = [];
  for (const pkg of await readdir(`${root}packages`)) {
    const entries = await readdir(`${root}packages/${pkg}/src`, { recursive: true });
    for (const entry of entries) {
      const path = `packages/${pkg}/src/${entry}`;
      if (path.endsWith('.ts') && !notDocumented.test(path)) files.push(path);
    }
  }
  return files.sort();
}

/**
 * The ```ts and ```tsx blocks of `@example` tags in `text`'s doc comments, each with the line its
 * code starts on and whether it is TSX, and the lines of `@example` tags with no such block (which would otherwise go unchecked).
 */
function docExamples(text) {
  const examples = [];
  const unfenced = [];
  for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const firstLine = text.slice(0, comment.index).split('\n').length;
    const lines = comment[0].split('\n').map((line) => line.replace(/^\s*(\/\*\*|\*\/|\*(?!\/) ?)/, ''));
    let tag; // the open @example: its line, and whether a block was found under it
    let block;
    const closeTag = () => {
      if (tag && !tag.fenced) unfenced.push(tag.line);
      tag = undefined;
    };
    lines.forEach((line, i) => {
      if (block) {
        if (/^\s*```\s*$/.test(line)) {
          examples.push(block);
          block = undefined;
        } else block.code.push(line);
      } else if (/^\s*@\w/.test(line)) {
        closeTag();
        if (/^\s*@example\b/.test(line)) tag = { line: firstLine + i, fenced: false };
      } else if (tag && /^\s*```tsx?\s*$/.test(line)) {
        tag.fenced = true;
        block = { line: firstLine + i + 1, code: [], tsx: /```tsx/.test(line) };
      }
    });
    closeTag();
  }
  return { examples, unfenced };
}

function compilerOptions(config) {
  const path = `${docs}${config}`;
  const read = ts.readConfigFile(path, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(read.config, ts.sys, docs, undefined, path).options;
}

/** Type-checks `examples` (virtual files under docs/, so bare imports resolve as the docs' do). */
function check(config, examples) {
  const options = compilerOptions(config);
  const virtual = new Map(examples.map((example) => [example.virtualPath, example]));
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile: read } = host;
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  host.readFile = (name) => virtual.get(name)?.text ?? read(name);
  host.getSourceFile = (name, language, ...rest) => {
    const example = virtual.get(name);
    if (example) return ts.createSourceFile(name, example.text, language, true);
    return getSourceFile(name, language, ...rest);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  const problems = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const example = diagnostic.file && virtual.get(diagnostic.file.fileName);
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n  ');
    if (!example) {
      problems.push(`${config}: ${message}`);
      continue;
    }
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    problems.push(`${example.source}:${example.line + line}: ${message}`);
  }
  return problems;
}

const byConfig = new Map();
const unchecked = [];
let count = 0;
for (const source of await sourceFiles()) {
  const environment = environments.find(({ match }) => match.test(source));
  if (!environment) continue;
  const { examples, unfenced } = docExamples(await readFile(`${root}${source}`, 'utf8'));
  for (const line of unfenced)
    unchecked.push(`${source}:${line}: this @example has no \`\`\`ts (or \`\`\`tsx) block to check.`);
  for (const example of examples) {
    count++;
    const config = example.tsx ? tsxConfig : environment.config;
    const list = byConfig.get(config) ?? [];
    // `export {}` makes each block a module, so names in one never leak into another.
    list.push({
      source,
      line: example.line,
      text: `${example.code.join('\n')}\nexport {};\n`,
      virtualPath: `${docs}.doc-examples/${source.replace(/\.ts$/, '')}.L${example.line}.${example.tsx ? 'tsx' : 'ts'}`,
    });
    byConfig.set(config, list);
  }
}
if (count === 0)
  unchecked.push('No @example blocks were found under packages/*/src: the extraction is broken.');
const problems = [...unchecked, ...[...byConfig].flatMap(([config, examples]) => check(config, examples))];
if (problems.length > 0) {
  console.error(
    `${problems.join('\n')}\n${problems.length} problem(s) in @example blocks. An example compiles on its own: import what it uses from the published path and declare what the reader has at hand (\`declare const run: Run;\`).`,
  );
  process.exit(1);
}
console.log(`Doc-comment examples: ${count} blocks compile.`);
