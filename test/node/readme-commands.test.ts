// Every `pnpm <name>` the READMEs tell a person to type runs the root script of that name with the
// pinned pnpm: it is one of package.json's scripts and not one of pnpm's own commands, which would
// win over it (pnpm 12's `pnpm docs <package>` opens a package's docs page, so `pnpm docs` failed).
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
// The READMEs and guides that speak of this repository (the browser's and edge's speak of the
// user's project).
const readmes = [
  'README.md',
  'packages/core/README.md',
  ...readdirSync(root('docs/guides'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/guides/${name}`),
];
/** pnpm's commands that run the script of their name rather than doing something of their own. */
const runsScript = new Set(['test', 'start', 'stop', 'restart']);

/** pnpm's own commands and their aliases, as `pnpm --help` lists them. */
async function pnpmCommands(): Promise<Set<string>> {
  const { stdout } = await promisify(execFile)('pnpm', ['--help'], { cwd: root('.') });
  const names = new Set<string>();
  for (const line of stdout.split('\n')) {
    const command = /^ {2}([a-z][\w-]*)\s{2,}.*?(?:\[aliases?: ([^\]]+)\])?$/.exec(line);
    if (!command) continue;
    names.add(command[1]!);
    for (const alias of command[2]?.split(',') ?? []) names.add(alias.trim());
  }
  return names;
}

describe('the commands the READMEs give', () => {
  it('each `pnpm <name>` is a root script that no pnpm command of the same name shadows', async () => {
    const { scripts } = JSON.parse(await readFile(root('package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const builtIn = await pnpmCommands();
    expect(builtIn.has('docs') || builtIn.has('install'), 'pnpm --help was read').toBe(true);
    const named = new Set<string>();
    for (const readme of readmes) {
      const text = await readFile(root(readme), 'utf8');
      for (const [, name] of text.matchAll(/`pnpm (?:run )?([a-z][\w:-]*)[^`]*`/g)) named.add(name!);
    }
    const scriptNames = [...named].filter((name) => !['exec', 'install', 'add', 'dlx'].includes(name));
    expect(scriptNames.length).toBeGreaterThan(3);
    const wrong = scriptNames.filter(
      (name) => !(name in scripts) || (builtIn.has(name) && !runsScript.has(name)),
    );
    expect(wrong, 'each is a script in package.json that pnpm runs as one').toEqual([]);
  });
});
