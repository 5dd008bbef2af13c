import { describe, expect, it } from 'vitest';
import { ToolctxError } from '../errors.js';
import { describeWorkspace } from '../testing/index.js';
import { createMemoryWorkspace } from './memory-workspace.js';
import { resolveWorkspacePath } from './resolve-path.js';
import { withWorkspace } from './with-workspace.js';

describeWorkspace('memory', { create: () => createMemoryWorkspace() });
describeWorkspace('memory, re-rooted with withWorkspace', {
  create: () => withWorkspace(createMemoryWorkspace({ root: '/store' }), 'runs/run_1'),
});

describe('memory workspace specifics', () => {
  it('refuses a path that is both a file and a folder', async () => {
    const workspace = createMemoryWorkspace();
    await workspace.write('a/b', 'file');
    await expect(workspace.write('a/b/c', 'x')).rejects.toThrow(/"a\/b" is a file/);
    await expect(workspace.write('a', 'x')).rejects.toThrow(/it is a folder/);
    expect(await workspace.list()).toEqual(['a/b']);
  });

  it('reports its root, and a re-rooted one nests it', () => {
    const workspace = createMemoryWorkspace({ root: '/data/' });
    expect(createMemoryWorkspace().root).toBe('/');
    expect(withWorkspace(workspace, 'x/./y').root).toBe('/data/x/y');
  });
});

describe('resolveWorkspacePath', () => {
  it('names the problem and the fix in a policy-refused error', () => {
    const messageOf = (raw: string): string => {
      try {
        resolveWorkspacePath(raw);
      } catch (error) {
        expect(error).toBeInstanceOf(ToolctxError);
        expect((error as ToolctxError).kind).toBe('policy-refused');
        return (error as Error).message;
      }
      throw new Error(`${raw} was not refused`);
    };
    expect(messageOf('../x')).toMatch(/contains "\.\."\. Write the normalised path/);
    expect(messageOf('/etc/passwd')).toMatch(/absolute/);
    expect(messageOf('x\u0000y')).toContain('"x\\u0000y"');
    expect(messageOf('%252F')).toMatch(/percent-encoded/);
  });

  it('accepts exactly 1024 bytes and refuses 1025', () => {
    expect(resolveWorkspacePath('a'.repeat(1024))).toHaveLength(1024);
    expect(() => resolveWorkspacePath('a'.repeat(1025))).toThrow(/longer than 1024 bytes/);
    expect(() => resolveWorkspacePath(42 as never)).toThrow(ToolctxError);
  });

  it('is idempotent on what it returns', () => {
    for (const raw of ['a/./b//c', './x/', 'é/ü'])
      expect(resolveWorkspacePath(resolveWorkspacePath(raw))).toBe(resolveWorkspacePath(raw));
  });
});
