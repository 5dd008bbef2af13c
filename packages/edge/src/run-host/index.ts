// What run-host offers the rest of the package: the doors reach the run directories, the call
// slots and the identity counter's client through here, never through the folder's other files.
// The package entry picks which of these are public.
export {
  type CallSlot,
  type IdentityCallLimit,
  identityStateBinding,
  takeCallSlot,
} from './call-slots.js';
export { durableObjectDoor, httpCallDoor, httpDoor } from './doors.js';
export { type DurableObjectRunsOptions, durableObjectRuns } from './durable-object-runs.js';
export { identityStateOf } from './identity-slots.js';
export { defaultLimits, limitExceeded, type RunLimits } from './limits.js';
export {
  createMemoryRunDirectory,
  type MemoryRunDirectoryOptions,
  type RunDirectory,
} from './run-directory.js';
export type { ListedRun, RunListOptions, RunPage, RunSummary } from './run-list.js';
export type { DoorRun } from './run-state.js';
export type { AskTaken, CancelInfo, DoorCall, RunInfo, RunInit } from './types.js';
