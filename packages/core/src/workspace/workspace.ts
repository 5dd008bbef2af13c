/**
 * Files a run may read and write, under one root. Every path argument goes through `resolve`,
 * so a model-supplied path cannot leave the root. Paths in and out are relative to the root.
 * `list(prefix)` lists the files at any depth under the folder `prefix` (all files without
 * one), sorted, as paths usable with the other verbs.
 *
 * @example
 * ```ts
 * import { type Workspace, createMemoryWorkspace } from '@toolctx/core';
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
  readText(path: string): Promise<string | null>;
  readBytes(path: string): Promise<Uint8Array | null>;
  write(path: string, data: string | Uint8Array): Promise<void>;
  list(prefix?: string): Promise<string[]>;
  delete(path: string): Promise<boolean>;
}
