export type { IdentityCallLimit } from './call-slots.js';
export { durableObjectDoor, httpCallDoor, httpDoor } from './doors.js';
export { type DurableObjectRunsOptions, durableObjectRuns } from './durable-object-runs.js';
export { defaultLimits, limitExceeded, type RunLimits } from './limits.js';
export {
  createMemoryRunDirectory,
  type MemoryRunDirectoryOptions,
  type RunDirectory,
} from './run-directory.js';
export type { ListedRun, RunListOptions, RunPage, RunSummary } from './run-list.js';
export type { DoorRun } from './run-state.js';
export type { AskTaken, CallAnswer, CallFormat, CancelInfo, DoorCall, RunInfo, RunInit } from './types.js';
