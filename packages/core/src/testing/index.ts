/**
 * `@toolctx/core/testing`: the conformance suites every platform store and door must pass.
 *
 * @module
 */
export type { ArtifactStoreSuiteOptions } from './artifact-suite-kit.js';
export { describeArtifactStore } from './describe-artifact-store.js';
export { type CachePortSuiteOptions, describeCachePort } from './describe-cache-port.js';
export { describeWorkspace, type WorkspaceSuiteOptions } from './describe-workspace.js';
export { hostilePaths } from './hostile-paths.js';
