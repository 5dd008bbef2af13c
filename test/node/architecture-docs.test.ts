// ARCHITECTURE.md and CONTRIBUTING.md are maps of the repository: they hold only while what they
// name exists. Every file path, every `pnpm <script>`, every function named after its file and
// every dependency-cruiser rule they quote is checked against the tree, so a rename that leaves
// them behind fails here, naming what went stale.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = (path = '') => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const docs = ['ARCHITECTURE.md', 'CONTRIBUTING.md'] as const;
const read = (path: string) => readFileSync(root(path), 'utf8');

/** The text outside fenced code blocks, and the lines inside them. */
function split(markdown: string): { prose: string; fenced: string[] } {
  const parts = markdown.split(/^```.*$/m);
  return {
    prose: parts.filter((_, i) => i % 2 === 0).join('\n'),
    fenced: parts.filter((_, i) => i % 2 === 1).flatMap((block) => block.split('\n')),
  };
}

/** Inline code spans, in order. */
const spans = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);

const topLevel = new Set(readdirSync(root()));
const fileExtensions = /\.(ts|mts|mjs|cjs|js|json|jsonc|md|sh|yaml|png)$/;
const trackedNames = new Set(
  execFileSync('git', ['ls-files'], { cwd: root(), encoding: 'utf8' })
    .split('\n')
    .map((path) => basename(path)),
);

/**
 * Whether a code span names a repository path: one that starts at a top-level entry
 * (`packages/…`, `test/…`), or a bare file name. Placeholders (`<name>`), globs and package
 * specifiers (`@toolctx/core/testing`) name no one file, and MCP methods (`tools/call`) no path.
 */
function pathOf(span: string): string | undefined {
  if (/[\s<>*…:()]/.test(span) || span.startsWith('@') || span.startsWith('/')) return undefined;
  const [first] = span.split('/');
  if (span.includes('/')) return topLevel.has(first!) ? span : undefined;
  return fileExtensions.test(span) ? span : undefined;
}

const exists = (path: string) =>
  path.includes('/') ? existsSync(root(path)) : existsSync(root(path)) || trackedNames.has(path);

describe('the architecture and contributing guides', () => {
  it('name only files and folders that exist', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const doc of docs) {
      for (const span of spans(split(read(doc)).prose)) {
        const path = pathOf(span);
        if (!path) continue;
        checked++;
        if (!exists(path)) missing.push(`${doc}: ${path}`);
      }
    }
    expect(checked, 'paths were found to check').toBeGreaterThan(60);
    expect(missing, 'each path named in the guides exists').toEqual([]);
  });

  it('name each function after the file that defines it', () => {
    // A span `name()` (or `Class.name()`) right after a file's path in the same paragraph or list
    // item is a function of that file: the call path reads "file, then what runs in it".
    const wrong: string[] = [];
    let checked = 0;
    for (const doc of docs) {
      const blocks = split(read(doc)).prose.split(/\n\s*\n|\n(?=\s*(?:\d+\.|-|\|) )/);
      for (const block of blocks) {
        let file: string | undefined;
        for (const span of spans(block)) {
          const path = pathOf(span);
          if (path?.includes('/') && /\.(ts|mjs)$/.test(path) && existsSync(root(path))) {
            file = path;
            continue;
          }
          const called = /^(?:[A-Za-z_$][\w$]*\.)*([A-Za-z_$][\w$]*)\(\)$/.exec(span);
          if (!called || !file) continue;
          checked++;
          if (!new RegExp(`\\b${called[1]}\\b`).test(read(file))) wrong.push(`${doc}: ${span} in ${file}`);
        }
      }
    }
    expect(checked, 'functions were found to check').toBeGreaterThan(30);
    expect(wrong, 'each function is in the file named before it').toEqual([]);
  });

  it('give only `pnpm` and `npm run` commands that are root scripts', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    const unknown: string[] = [];
    const named = new Set<string>();
    for (const doc of docs) {
      const { prose, fenced } = split(read(doc));
      const commands = [...spans(prose), ...fenced.map((line) => line.trim())];
      for (const command of commands) {
        const script = /^(?:pnpm (?:run )?|npm run )([a-z][\w:-]*)/.exec(command)?.[1];
        if (!script || ['exec', 'install', 'add', 'dlx'].includes(script)) continue;
        named.add(script);
        if (!(script in scripts)) unknown.push(`${doc}: ${command}`);
      }
    }
    expect(named.size, 'commands were found to check').toBeGreaterThan(5);
    expect(unknown, 'each is a script in the root package.json').toEqual([]);
  });

  it('quote exactly the dependency-cruiser rules the config enforces', () => {
    const config = createRequire(import.meta.url)(root('.dependency-cruiser.cjs')) as {
      forbidden: { name: string }[];
    };
    const enforced = config.forbidden.map((rule) => rule.name).sort();
    // The rules are the list items of the form "- `rule-name`: what it forbids".
    const quoted = [...read('ARCHITECTURE.md').matchAll(/^- `([a-z][a-z0-9-]*)`:/gm)]
      .map((m) => m[1]!)
      .sort();
    expect(enforced.length).toBeGreaterThan(3);
    expect(
      quoted.filter((name) => !enforced.includes(name)),
      'each rule ARCHITECTURE.md quotes is in .dependency-cruiser.cjs',
    ).toEqual([]);
    expect(
      enforced.filter((name) => !quoted.includes(name)),
      'each rule in .dependency-cruiser.cjs is quoted in ARCHITECTURE.md',
    ).toEqual([]);
  });

  it('are linked from the README', () => {
    const readme = read('README.md');
    for (const doc of docs) {
      expect(readme.includes(`](${doc})`), `README.md links ${doc}`).toBe(true);
      expect(statSync(root(doc)).size).toBeGreaterThan(1000);
    }
  });
});
