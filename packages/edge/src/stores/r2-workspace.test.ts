import { env } from 'cloudflare:workers';
import { withWorkspace } from '@toolctx/core';
import { describeWorkspace } from '@toolctx/core/testing';
import { describe, expect, it } from 'vitest';
import { createR2Workspace } from './r2-workspace.js';

// Real R2 operations in Miniflare take about 25 ms each; the hostile-path cases make many.

// A root per workspace keeps each case's objects apart in the shared bucket: a fresh one per case.
const fresh = () => createR2Workspace({ bucket: env.ARTIFACTS, root: `ws-${crypto.randomUUID()}` });

describeWorkspace('R2 in workerd', { create: fresh });
describeWorkspace('R2 in workerd, re-rooted with withWorkspace', {
  create: () => withWorkspace(fresh(), 'runs/run_1'),
});

describe('createR2Workspace specifics', () => {
  it('keeps a file as an R2 object under its root, and reports the root', async () => {
    const root = `ws-${crypto.randomUUID()}`;
    const workspace = createR2Workspace({ bucket: env.ARTIFACTS, root: `${root}/` });
    expect(workspace.root).toBe(`/${root}`);
    await workspace.write('a/b.txt', 'hello');
    expect(await (await env.ARTIFACTS.get(`${root}/a/b.txt`))?.text()).toBe('hello');
    expect(createR2Workspace({ bucket: env.ARTIFACTS }).root).toBe('/');
  });

  it('refuses a path that is both a file and a folder', async () => {
    const workspace = fresh();
    await workspace.write('a/b', 'file');
    await expect(workspace.write('a/b/c', 'x')).rejects.toThrow(/"a\/b" is a file/);
    await expect(workspace.write('a', 'x')).rejects.toThrow(/it is a folder/);
    expect(await workspace.list()).toEqual(['a/b']);
  });

  it('lists past one R2 page and sorts like JavaScript', async () => {
    const workspace = fresh();
    const names = Array.from({ length: 1_005 }, (_, i) => `many/${i}.txt`);
    await Promise.all(names.map((name) => env.ARTIFACTS.put(`${workspace.root.slice(1)}/${name}`, '.')));
    await workspace.write('many/é.txt', '.');
    await workspace.write('many/z.txt', '.');
    const listed = await workspace.list('many');
    expect(listed).toEqual([...names, 'many/é.txt', 'many/z.txt'].sort());
  });
});
