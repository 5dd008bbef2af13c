/**
 * Files a run may read and write, under one root. Every path argument goes through `resolve`,
 * so a model-supplied path cannot leave the root. Paths in and out are relative to the root.
 * `list(prefix)` lists the files at any depth under the folder `prefix` (all files without
 * one), sorted, as paths usable with the other verbs.
 *
 * @example
 * ```ts
 * import type { Workspace } from '@toolctx/core';
 * import { createMemoryWorkspace } from '@toolctx/core/memory';
 * const workspace: Workspace = createMemoryWorkspace();
 * await workspace.write('notes/todo.md', '- ship it');
 * await workspace.list('notes'); // ['notes/todo.md']
 * ```
 */
export interface Workspace {
  /** Where this workspace lives in its backend, `/`-led: `/` for a whole store, `/runs/r1` re-rooted. */
  readonly root: string;
  /** The normalised relative path, or a `policy-refused` ToolctxError. */
  resolve(raw: string): string;
  /** The file at `path` as UTF-8 text, or `null` when there is none. */
  readText(path: string): Promise<string | null>;
  /** The file at `path` as bytes, or `null` when there is none. */
  readBytes(path: string): Promise<Uint8Array | null>;
  /** Writes the file at `path`, creating or replacing it. */
  write(path: string, data: string | Uint8Array): Promise<void>;
  /** The files under `prefix` (all when absent), sorted. */
  list(prefix?: string): Promise<string[]>;
  /** Removes the file at `path`; whether it was there. */
  delete(path: string): Promise<boolean>;
}
