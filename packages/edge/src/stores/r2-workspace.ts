import { ToolctxError, type Workspace } from '@toolctx/core';
import { resolveWorkspacePath } from '@toolctx/core/ports';

/** Options of {@link createR2Workspace}. */
export interface R2WorkspaceOptions {
  /** The R2 bucket holding the files (pass `env.X`). */
  bucket: R2Bucket;
  /** The folder of the bucket this workspace lives in (itself resolved); the whole bucket by default. */
  root?: string;
}

// R2 keys are at most 1,024 bytes.
const MAX_KEY_BYTES = 1_024;

/**
 * A {@link Workspace} on R2: a file is an object keyed `<root>/<path>`, and every path goes
 * through core's `resolveWorkspacePath`, so a model-supplied path cannot leave the root. Like a
 * file system (and the memory workspace), a path cannot be both a file and a folder: writing
 * `a` while `a/b` exists, or the reverse, is a `conflict` error. `list` pages through R2 and
 * sorts like JavaScript does.
 *
 * @example
 * ```ts
 * import type { ExampleWorkerEnv } from '@toolctx/edge';
 * declare const env: ExampleWorkerEnv;
 * import { createR2Workspace } from '@toolctx/edge';
 * const workspace = createR2Workspace({ bucket: env.ARTIFACTS, root: 'workspaces/acme' });
 * await workspace.write('notes/todo.md', '- ship it');
 * await workspace.list('notes'); // ['notes/todo.md']
 * ```
 */
export function createR2Workspace(options: R2WorkspaceOptions): Workspace {
  const { bucket } = options;
  const base = options.root === undefined ? '' : `${resolveWorkspacePath(options.root)}/`;
  const resolve = resolveWorkspacePath;

  const keyOf = (path: string): string => {
    const key = `${base}${resolve(path)}`;
    if (new TextEncoder().encode(key).byteLength > MAX_KEY_BYTES) {
      throw new ToolctxError(
        'invalid-argument',
        `The path is too long for R2 (keys are at most ${MAX_KEY_BYTES} bytes with the root). Use a shorter path.`,
      );
    }
    return key;
  };

  const read = async (path: string): Promise<Uint8Array | null> => {
    const object = await bucket.get(keyOf(path));
    return object ? new Uint8Array(await object.arrayBuffer()) : null;
  };

  const listKeys = async (folder: string, limit?: number): Promise<string[]> => {
    const keys: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await bucket.list({
        prefix: folder,
        ...(limit ? { limit } : {}),
        ...(cursor ? { cursor } : {}),
      });
      keys.push(...page.objects.map((object) => object.key));
      if (limit && keys.length >= limit) return keys;
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor !== undefined);
    return keys;
  };

  return {
    root: `/${base.replace(/\/$/, '')}`,
    resolve,
    async readText(path) {
      const bytes = await read(path);
      return bytes ? new TextDecoder().decode(bytes) : null;
    },
    readBytes: read,
    async write(path, data) {
      const key = keyOf(path);
      if (typeof data !== 'string' && !(data instanceof Uint8Array)) {
        throw new ToolctxError('invalid-argument', 'Workspace data must be a string or a Uint8Array.');
      }
      const target = key.slice(base.length);
      const parts = target.split('/');
      const folders = parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/'));
      const [files, inside] = await Promise.all([
        Promise.all(folders.map((folder) => bucket.head(`${base}${folder}`))),
        listKeys(`${key}/`, 1),
      ]);
      const file = files.findIndex((found) => found !== null);
      if (file >= 0) {
        throw new ToolctxError(
          'conflict',
          `Cannot write "${target}": "${folders[file]}" is a file, not a folder.`,
        );
      }
      if (inside.length > 0) {
        throw new ToolctxError(
          'conflict',
          `Cannot write "${target}": it is a folder. Write a file inside it.`,
        );
      }
      await bucket.put(key, typeof data === 'string' ? new TextEncoder().encode(data) : data.slice());
    },
    async list(prefix) {
      const folder = prefix === undefined ? base : `${keyOf(prefix)}/`;
      return (await listKeys(folder)).map((key) => key.slice(base.length)).sort();
    },
    async delete(path) {
      const key = keyOf(path);
      if (!(await bucket.head(key))) return false;
      await bucket.delete(key);
      return true;
    },
  };
}
