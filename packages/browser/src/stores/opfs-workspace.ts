import { ToolctxError, type Workspace } from '@toolctx/core';
import { resolveWorkspacePath } from '@toolctx/core/ports';

/** Options of {@link createOpfsWorkspace}. */
export interface OpfsWorkspaceOptions {
  /**
   * The folder inside the origin private file system that holds the files, such as
   * `'toolctx/workspace'` (checked like any workspace path); the whole file system by default.
   */
  root?: string;
}

type Folder = FileSystemDirectoryHandle;
/** Async iteration of a folder: in every browser with OPFS, but not in TypeScript's DOM lib here. */
type ListableFolder = Folder & { entries(): AsyncIterable<[string, FileSystemHandle]> };

/** What OPFS throws for a name that does not exist, or exists as the other kind (file or folder). */
const isMissing = (error: unknown): boolean =>
  error instanceof DOMException && (error.name === 'NotFoundError' || error.name === 'TypeMismatchError');

/**
 * A {@link Workspace} in the Origin Private File System (`navigator.storage.getDirectory()`):
 * private to the origin, persistent, no permission prompt. Each path segment is a real folder.
 * Every path goes through `resolveWorkspacePath`, so a model-supplied path cannot leave `root`.
 * Like a file system, a path cannot be both a file and a folder: such a write is a `conflict`
 * error. Deleting a file leaves its (possibly empty) folders, which `list` never shows.
 *
 * @example
 * ```ts
 * import { createOpfsWorkspace } from '@toolctx/browser';
 * const workspace = createOpfsWorkspace({ root: 'toolctx/workspace' });
 * await workspace.write('notes/todo.md', '- ship it');
 * await workspace.list('notes'); // ['notes/todo.md']
 * ```
 */
export function createOpfsWorkspace(options: OpfsWorkspaceOptions = {}): Workspace {
  const trimmed = options.root?.replace(/^\/+|\/+$/g, '') ?? '';
  const base = trimmed === '' ? [] : resolveWorkspacePath(trimmed).split('/');
  const split = (path: string): { folders: string[]; name: string } => {
    const segments = resolveWorkspacePath(path).split('/');
    const name = segments.pop()!;
    return { folders: segments, name };
  };

  /** The folder at `segments` under the root: created on the way, or null when it is missing. */
  async function folder(segments: string[], create: boolean): Promise<Folder | null> {
    let current = await navigator.storage.getDirectory();
    for (const [index, segment] of [...base, ...segments].entries()) {
      try {
        current = await current.getDirectoryHandle(segment, { create });
      } catch (error) {
        if (!isMissing(error)) throw error;
        if (!create) return null;
        const at =
          index < base.length
            ? `the root's "/${base.slice(0, index + 1).join('/')}"`
            : `"${segments.slice(0, index - base.length + 1).join('/')}"`;
        throw new ToolctxError('conflict', `Cannot write inside ${at}: it is a file, not a folder.`, {
          cause: error,
        });
      }
    }
    return current;
  }

  async function readBytes(path: string): Promise<Uint8Array | null> {
    const { folders, name } = split(path);
    try {
      const handle = await (await folder(folders, false))?.getFileHandle(name);
      return handle ? new Uint8Array(await (await handle.getFile()).arrayBuffer()) : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  return {
    root: `/${base.join('/')}`,
    resolve: resolveWorkspacePath,
    readBytes,
    async readText(path) {
      const bytes = await readBytes(path);
      return bytes ? new TextDecoder().decode(bytes) : null;
    },
    async write(path, data) {
      const { folders, name } = split(path);
      if (typeof data !== 'string' && !(data instanceof Uint8Array)) {
        throw new ToolctxError('invalid-argument', 'Workspace data must be a string or a Uint8Array.');
      }
      const parent = (await folder(folders, true))!;
      const handle = await parent.getFileHandle(name, { create: true }).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
        throw new ToolctxError('conflict', `Cannot write "${resolveWorkspacePath(path)}": it is a folder.`, {
          cause: error,
        });
      });
      // A writable swaps the file in on close, so a failed write leaves the old content whole.
      const writable = await handle.createWritable();
      try {
        await writable.write(typeof data === 'string' ? data : new Uint8Array(data));
        await writable.close();
      } catch (error) {
        await writable.abort().catch(() => {});
        throw error;
      }
    },
    async list(prefix) {
      const start = prefix === undefined ? [] : resolveWorkspacePath(prefix).split('/');
      const found: string[] = [];
      const walk = async (current: Folder, at: string): Promise<void> => {
        for await (const [name, handle] of (current as ListableFolder).entries()) {
          const path = at === '' ? name : `${at}/${name}`;
          if (handle.kind === 'file') found.push(path);
          else await walk(handle as Folder, path);
        }
      };
      const top = await folder(start, false);
      if (top) await walk(top, start.join('/'));
      return found.sort();
    },
    async delete(path) {
      const { folders, name } = split(path);
      const parent = await folder(folders, false);
      try {
        // getFileHandle first: a folder of that name is not a file, and is left alone.
        await parent?.getFileHandle(name);
        await parent?.removeEntry(name);
        return parent !== null;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
  };
}
