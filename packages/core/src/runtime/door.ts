import type { TeardownScope } from '../teardown/teardown-registry.js';

/**
 * What a door (a place where tools are called) supplies to the tools it serves. Each door declares
 * it; the door conformance suite and the README's table are generated from these declarations.
 */
export interface DoorDeclaration {
  /** Shown in error messages, such as a teardown scope the door does not honour. */
  name: string;
  /** The teardown scopes whose ends this door observes. */
  teardownScopes: readonly TeardownScope[];
  /** Whether calls belong to runs with ids (`ctx.runId`). */
  runIds: boolean;
  /** Whether tools can call other tools through `ctx.tools`. */
  dispatch: boolean;
  /**
   * How a person decides an approval a call waits for at this door, in a sentence: what
   * `approval-pending`'s message tells the caller to do. Default: `run.resume`.
   */
  decides?: string;
}

/**
 * The in-process door: `runtime.startRun()`. It observes every scope, has runs and dispatch.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime, inProcessDoor } from '@toolctx/core';
 * declare const tools: AnyTool[];
 * const runtime = createRuntime({ tools, door: inProcessDoor });
 * ```
 */
export const inProcessDoor: DoorDeclaration = Object.freeze({
  name: 'in-process',
  teardownScopes: Object.freeze(['call', 'run', 'session', 'shutdown'] as const),
  runIds: true,
  dispatch: true,
});
