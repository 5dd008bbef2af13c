import type { ToolResult } from '@toolctx/core';

/**
 * Microtask turns a call may take and still be answered as a plain JSON body: a tool that only
 * computes settles in under 20, one that waits on I/O or a timer does not settle in any number.
 */
export const quickTurns = 64;

/**
 * The result if the call settles within `turns` microtask turns — it waited on no I/O or timer,
 * as a tool that only computes does — else `undefined`. Counted in turns rather than timed with a
 * timer of 0: workerd charges for a timer on every request, a turn costs next to nothing. A call
 * answered this way has no stream, so nothing can find its client hanging up; it had no time to.
 */
export async function settledWithinTurns(
  settled: Promise<ToolResult>,
  turns = quickTurns,
): Promise<ToolResult | undefined> {
  let result: ToolResult | undefined;
  void settled.then((value) => {
    result = value;
  });
  for (let turn = 0; turn < turns && result === undefined; turn++) await undefined;
  return result;
}
