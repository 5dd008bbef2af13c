export { createMemoryWorkspace, type MemoryWorkspaceOptions } from './memory-workspace.js';
export { resolveWorkspacePath } from './resolve-path.js';
export { withWorkspace } from './with-workspace.js';
export type { Workspace } from './workspace.js';
