import type { DoorDeclaration } from '@toolctx/core';

/**
 * The Web Worker door: tools run in a dedicated Worker, called from the page. It observes the end
 * of a call and of a run; a terminated Worker runs no more code, so `session` and `shutdown`
 * cleanups cannot be promised. Calls belong to runs with ids, and tools can call tools.
 *
 * @example
 * ```ts
 * import { webWorkerDoor } from '@toolctx/browser/worker';
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * declare const tools: AnyTool[];
 * const runtime = createRuntime({ tools, door: webWorkerDoor });
 * ```
 */
export const webWorkerDoor: DoorDeclaration = Object.freeze({
  name: 'web-worker',
  teardownScopes: Object.freeze(['call', 'run'] as const),
  runIds: true,
  dispatch: true,
  decides:
    'The page decides it with run.resume(approvalId, decision) on the run connectWorker gave, or with the status widget’s Approve and Deny.',
});
