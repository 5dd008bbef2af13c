/**
 * `@toolctx/browser`: toolctx's stores in the web page — artifacts and a cache in IndexedDB, a
 * workspace in the origin private file system. The rest has an entry of its own, so a page pays
 * only for what it imports: `@toolctx/browser/status` (the live-status widget),
 * `@toolctx/browser/worker` (the Web Worker door) and `@toolctx/browser/remote` (a remote run's
 * events in the page); `@toolctx/browser/react`, `/vue` and `/svelte` type the widget's element in
 * each framework's templates.
 *
 * @example
 * ```ts
 * import { createIdbArtifactStore } from '@toolctx/browser';
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * declare const tools: AnyTool[];
 * const runtime = createRuntime({ tools, artifacts: createIdbArtifactStore() });
 * ```
 * @module
 */
export {
  createIdbArtifactStore,
  createIdbCache,
  createOpfsWorkspace,
  type IdbArtifactStoreOptions,
  type IdbCacheOptions,
  type IdbConnectionChange,
  type OpfsWorkspaceOptions,
} from './stores/index.js';
