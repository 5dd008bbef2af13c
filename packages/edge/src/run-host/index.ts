export { durableObjectDoor, httpDoor } from './doors.js';
export { type DurableObjectRunsOptions, durableObjectRuns } from './durable-object-runs.js';
export { defaultLimits, limitExceeded, type RunLimits } from './limits.js';
export {
  createMemoryRunDirectory,
  type MemoryRunDirectoryOptions,
  type RunDirectory,
} from './run-directory.js';
export type { RunRecord } from './run-log.js';
export { createMemoryRunStorage, type RunStorage, type RunStorageListOptions } from './run-storage.js';
export type { CallFormat, CancelInfo, DoorCall, RunInfo, RunInit } from './types.js';
