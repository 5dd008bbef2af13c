import { ToolctxError } from '@toolctx/core';
import { describeWorkspace } from '@toolctx/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createOpfsWorkspace } from './opfs-workspace.js';

// OPFS needs a real page: Chromium only. Each case gets its own folder under one test folder.
const testRoot = `toolctx-tests-${crypto.randomUUID()}`;
const freshRoot = (): string => `${testRoot}/${crypto.randomUUID()}`;

afterAll(async () => {
  await (await navigator.storage.getDirectory()).removeEntry(testRoot, { recursive: true });
});

describeWorkspace('OPFS', { create: () => createOpfsWorkspace({ root: freshRoot() }) });

describe('createOpfsWorkspace specifics', () => {
  it('writes real OPFS folders and files, which a second workspace on the same root reads', async () => {
    const root = freshRoot();
    await createOpfsWorkspace({ root }).write('a/b.txt', 'persisted');
    let folder = await navigator.storage.getDirectory();
    for (const segment of [...root.split('/'), 'a']) folder = await folder.getDirectoryHandle(segment);
    const file = await (await folder.getFileHandle('b.txt')).getFile();
    expect(await file.text()).toBe('persisted');
    expect(await createOpfsWorkspace({ root: `/${root}/` }).readText('a/b.txt')).toBe('persisted');
  });

  it('refuses a path that is both a file and a folder, and deletes no folder', async () => {
    const workspace = createOpfsWorkspace({ root: freshRoot() });
    await workspace.write('a/b', 'file');
    await expect(workspace.write('a/b/c', 'x')).rejects.toThrow(/"a\/b": it is a file/);
    await expect(workspace.write('a', 'x')).rejects.toThrow(/it is a folder/);
    expect(await workspace.delete('a')).toBe(false);
    expect(await workspace.list()).toEqual(['a/b']);
    expect(await workspace.list('a/b')).toEqual([]);
  });

  it('reports its root and refuses a hostile one', () => {
    expect(createOpfsWorkspace().root).toBe('/');
    expect(createOpfsWorkspace({ root: '/data/./x/' }).root).toBe('/data/x');
    expect(() => createOpfsWorkspace({ root: '../outside' })).toThrow(ToolctxError);
  });

  it('refuses data that is neither a string nor bytes', async () => {
    const workspace = createOpfsWorkspace({ root: freshRoot() });
    await expect(workspace.write('f', 42 as never)).rejects.toThrow(/string or a Uint8Array/);
    expect(await workspace.list()).toEqual([]);
  });
});
