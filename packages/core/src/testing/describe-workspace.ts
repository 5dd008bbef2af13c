import { describe, expect } from 'vitest';
import { withWorkspace } from '../workspace/with-workspace.js';
import type { Workspace } from '../workspace/workspace.js';
import { hostilePaths } from './hostile-paths.js';
import { expectToolctxError, registerCases, type SuiteCase } from './suite-cases.js';

/** Options of `describeWorkspace`. */
export interface WorkspaceSuiteOptions {
  /** A fresh, empty workspace per case. */
  create: () => Workspace | Promise<Workspace>;
  /** Case titles this workspace is known to fail: each must fail, or the suite fails. */
  expectedFailures?: string[];
}

const all = Uint8Array.from({ length: 256 }, (_, i) => i);

/** Every verb with `path`, each expected to refuse it with policy-refused. */
async function expectRefusedEverywhere(workspace: Workspace, path: string): Promise<void> {
  const label = JSON.stringify(path.slice(0, 40));
  await expectToolctxError(() => workspace.resolve(path), 'policy-refused', `resolve(${label})`);
  await expectToolctxError(() => workspace.readText(path), 'policy-refused', `readText(${label})`);
  await expectToolctxError(() => workspace.readBytes(path), 'policy-refused', `readBytes(${label})`);
  await expectToolctxError(() => workspace.write(path, 'x'), 'policy-refused', `write(${label})`);
  await expectToolctxError(() => workspace.list(path), 'policy-refused', `list(${label})`);
  await expectToolctxError(() => workspace.delete(path), 'policy-refused', `delete(${label})`);
}

function workspaceCases(fresh: () => Promise<Workspace>): SuiteCase[] {
  const basics: SuiteCase[] = [
    {
      title: 'text round-trips through write and readText (and readBytes gives its UTF-8)',
      run: async () => {
        const workspace = await fresh();
        await workspace.write('notes.md', 'héllo 😀\n');
        expect(await workspace.readText('notes.md')).toBe('héllo 😀\n');
        expect(Array.from((await workspace.readBytes('notes.md')) ?? [])).toEqual(
          Array.from(new TextEncoder().encode('héllo 😀\n')),
        );
      },
    },
    {
      title: 'bytes with all 256 values round-trip; an empty file is not a missing one',
      run: async () => {
        const workspace = await fresh();
        await workspace.write('data.bin', all);
        await workspace.write('empty.txt', '');
        expect(Array.from((await workspace.readBytes('data.bin')) ?? [])).toEqual(Array.from(all));
        expect(await workspace.readText('empty.txt')).toBe('');
      },
    },
    {
      title: 'reading a missing file gives null',
      run: async () => {
        const workspace = await fresh();
        expect(await workspace.readText('missing.txt')).toBeNull();
        expect(await workspace.readBytes('dir/missing.bin')).toBeNull();
      },
    },
    {
      title: 'write overwrites',
      run: async () => {
        const workspace = await fresh();
        await workspace.write('f.txt', 'first, longer');
        await workspace.write('f.txt', 'second');
        expect(await workspace.readText('f.txt')).toBe('second');
      },
    },
    {
      title: 'delete removes a file and answers whether it existed',
      run: async () => {
        const workspace = await fresh();
        await workspace.write('a/f.txt', 'x');
        expect(await workspace.delete('a/f.txt')).toBe(true);
        expect(await workspace.readText('a/f.txt')).toBeNull();
        expect(await workspace.delete('a/f.txt')).toBe(false);
        expect(await workspace.list()).toEqual([]);
      },
    },
    {
      title: 'nested folders: list() gives every file, sorted, as usable paths',
      run: async () => {
        const workspace = await fresh();
        for (const path of ['z.txt', 'a/b/c/deep.txt', 'a/top.txt', 'a/b/mid.txt'])
          await workspace.write(path, path);
        const listed = await workspace.list();
        expect(listed).toEqual(['a/b/c/deep.txt', 'a/b/mid.txt', 'a/top.txt', 'z.txt']);
        for (const path of listed) expect(await workspace.readText(path)).toBe(path);
      },
    },
    {
      title: 'list(prefix) lists the folder at any depth, not names that merely start alike',
      run: async () => {
        const workspace = await fresh();
        for (const path of ['docs/a.md', 'docs/sub/b.md', 'docs2/c.md', 'docsx.md'])
          await workspace.write(path, '.');
        expect(await workspace.list('docs')).toEqual(['docs/a.md', 'docs/sub/b.md']);
        expect(await workspace.list('docs/')).toEqual(['docs/a.md', 'docs/sub/b.md']);
        expect(await workspace.list('docs/sub')).toEqual(['docs/sub/b.md']);
        expect(await workspace.list('nothing-here')).toEqual([]);
      },
    },
    {
      title: 'resolve normalises . and empty segments, and both spellings reach the same file',
      run: async () => {
        const workspace = await fresh();
        expect(workspace.resolve('a/./b//c.txt')).toBe('a/b/c.txt');
        expect(workspace.resolve('./a/b/')).toBe('a/b');
        await workspace.write('a/./b//c.txt', 'same');
        expect(await workspace.readText('a/b/c.txt')).toBe('same');
        expect(await workspace.list()).toEqual(['a/b/c.txt']);
      },
    },
    {
      title: 'ordinary names are allowed: unicode, spaces, inner dots, dotfiles, %20',
      run: async () => {
        const workspace = await fresh();
        const names = ['café/naïve 😀.txt', 'a..b', '.hidden', 'x%20y', 'dir.d/file.tar.gz', '漢字/ファイル'];
        for (const name of names) {
          expect(workspace.resolve(name)).toBe(name);
          await workspace.write(name, name);
        }
        for (const name of names) expect(await workspace.readText(name)).toBe(name);
      },
    },
    {
      title: 'withWorkspace re-roots: the run sees only its folder, the base sees it nested',
      run: async () => {
        const base = await fresh();
        await base.write('secret.txt', 'base only');
        const run = withWorkspace(base, 'runs/r1');
        await run.write('out/result.txt', 'mine');
        expect(run.root.endsWith('/runs/r1')).toBe(true);
        expect(await run.list()).toEqual(['out/result.txt']);
        expect(await run.readText('secret.txt')).toBeNull();
        expect(await base.readText('runs/r1/out/result.txt')).toBe('mine');
        expect(await base.list()).toEqual(['runs/r1/out/result.txt', 'secret.txt']);
        await expectToolctxError(
          () => withWorkspace(base, '../escape'),
          'policy-refused',
          'withWorkspace(../escape)',
        );
      },
    },
  ];
  const hostile: SuiteCase[] = hostilePaths.map(([what, path]) => ({
    title: `refused by resolve and every verb: ${what}`,
    run: async () => expectRefusedEverywhere(await fresh(), path),
  }));
  const nothingOutside: SuiteCase = {
    title: 'after every hostile write, nothing was written inside or outside a re-rooted workspace',
    run: async () => {
      const base = await fresh();
      await base.write('sentinel.txt', 'untouched');
      const jail = withWorkspace(base, 'jail');
      for (const [, path] of hostilePaths) {
        await base.write(path, 'escaped').catch(() => {});
        await jail.write(path, 'escaped').catch(() => {});
      }
      expect(await base.list()).toEqual(['sentinel.txt']);
      expect(await base.readText('sentinel.txt')).toBe('untouched');
      expect(await jail.list()).toEqual([]);
    },
  };
  return [...basics, ...hostile, nothingOutside];
}

/**
 * Registers the `Workspace` conformance cases with vitest, through the raw contract with a fresh
 * workspace per case: text and bytes round-trips, nested folders, `list` with a prefix,
 * normalisation, ordinary names, re-rooting with `withWorkspace`, and 35 hostile paths each
 * refused by `resolve` and by every verb, with proof that nothing was written.
 *
 * @example
 * ```ts
 * import { createMemoryWorkspace } from '@toolctx/core/memory';
 * import { describeWorkspace } from '@toolctx/core/testing';
 *
 * describeWorkspace('memory', { create: () => createMemoryWorkspace() });
 * ```
 */
export function describeWorkspace(name: string, options: WorkspaceSuiteOptions): void {
  describe(`Workspace conformance: ${name}`, () => {
    registerCases(
      workspaceCases(async () => options.create()),
      options.expectedFailures,
    );
  });
}
