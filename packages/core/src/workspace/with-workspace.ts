import type { Workspace } from './workspace.js';

/**
 * The same workspace re-rooted at a subfolder (itself resolved, so a hostile `subdir` is
 * refused): a run gets its own root and cannot reach its siblings. Paths in and out are relative
 * to the subfolder.
 *
 * @example
 * ```ts
 * import { withWorkspace } from '@toolctx/core';
 * import { createMemoryWorkspace } from '@toolctx/core/memory';
 * const shared = createMemoryWorkspace();
 * const run = withWorkspace(shared, 'runs/run_1');
 * await run.write('out.txt', 'x');
 * await shared.list(); // ['runs/run_1/out.txt']
 * run.root; // '/runs/run_1'
 * ```
 */
export function withWorkspace(workspace: Workspace, subdir: string): Workspace {
  const base = workspace.resolve(subdir);
  const inside = (path: string): string => `${base}/${workspace.resolve(path)}`;
  return {
    root: `${workspace.root.replace(/\/+$/, '')}/${base}`,
    resolve: (raw) => workspace.resolve(raw),
    readText: async (path) => workspace.readText(inside(path)),
    readBytes: async (path) => workspace.readBytes(inside(path)),
    write: async (path, data) => workspace.write(inside(path), data),
    delete: async (path) => workspace.delete(inside(path)),
    async list(prefix) {
      const listed = await workspace.list(prefix === undefined ? base : inside(prefix));
      return listed.map((path) => path.slice(base.length + 1));
    },
  };
}
