/**
 * `@toolctx/core/testing`: the conformance suites every platform store and door must pass.
 *
 * @module
 */
export type { ArtifactStoreSuiteOptions, SuiteRetention } from './artifact-suite-kit.js';
export { describeArtifactStore } from './describe-artifact-store.js';
export { type CachePortSuiteOptions, describeCachePort } from './describe-cache-port.js';
export { describeDoor } from './describe-door.js';
export { describeWorkspace, type WorkspaceSuiteOptions } from './describe-workspace.js';
export type {
  DoorCallOutcome,
  DoorClient,
  DoorConnectOptions,
  DoorSuiteOptions,
  DoorSupplies,
} from './door-suite-kit.js';
export { doorSuiteCredentials, doorSuiteTenant, doorSuiteTools } from './door-suite-tools.js';
export { hostilePaths } from './hostile-paths.js';
export { type McpDoorClientOptions, mcpDoorClient } from './mcp-door-client.js';
export { type RunDoorClientHooks, type RunLike, runDoorClient } from './run-door-client.js';
