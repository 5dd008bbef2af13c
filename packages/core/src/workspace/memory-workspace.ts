import { ToolctxError } from '../errors.js';
import { resolveWorkspacePath } from './resolve-path.js';
import type { Workspace } from './workspace.js';

/** Options of {@link createMemoryWorkspace}. */
export interface MemoryWorkspaceOptions {
  /** The `root` the workspace reports; `/` by default. */
  root?: string;
}

/**
 * A {@link Workspace} in memory. Like a file system, a path cannot be both a file and a folder:
 * writing `a` while `a/b` exists (or the reverse) is a `conflict` error.
 *
 * @example
 * ```ts
 * import { createMemoryWorkspace } from '@toolctx/core/memory';
 * const workspace = createMemoryWorkspace();
 * await workspace.write('a/b.txt', 'hello');
 * await workspace.readText('a/b.txt'); // 'hello'
 * ```
 */
export function createMemoryWorkspace(options: MemoryWorkspaceOptions = {}): Workspace {
  const files = new Map<string, Uint8Array>();
  const resolve = resolveWorkspacePath;
  const read = (path: string): Uint8Array | null => {
    const bytes = files.get(resolve(path));
    return bytes ? new Uint8Array(bytes) : null;
  };
  return {
    root: options.root ?? '/',
    resolve,
    async readText(path) {
      const bytes = read(path);
      return bytes ? new TextDecoder().decode(bytes) : null;
    },
    async readBytes(path) {
      return read(path);
    },
    async write(path, data) {
      const target = resolve(path);
      if (typeof data !== 'string' && !(data instanceof Uint8Array)) {
        throw new ToolctxError('invalid-argument', 'Workspace data must be a string or a Uint8Array.');
      }
      const parts = target.split('/');
      for (let i = 1; i < parts.length; i++) {
        const folder = parts.slice(0, i).join('/');
        if (files.has(folder)) {
          throw new ToolctxError(
            'conflict',
            `Cannot write "${target}": "${folder}" is a file, not a folder.`,
          );
        }
      }
      for (const existing of files.keys()) {
        if (existing.startsWith(`${target}/`)) {
          throw new ToolctxError(
            'conflict',
            `Cannot write "${target}": it is a folder. Write a file inside it.`,
          );
        }
      }
      files.set(target, typeof data === 'string' ? new TextEncoder().encode(data) : new Uint8Array(data));
    },
    async list(prefix) {
      const folder = prefix === undefined ? '' : `${resolve(prefix)}/`;
      return [...files.keys()].filter((path) => path.startsWith(folder)).sort();
    },
    async delete(path) {
      return files.delete(resolve(path));
    },
  };
}
