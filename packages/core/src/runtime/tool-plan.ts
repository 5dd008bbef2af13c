import { mayAskApproval } from '../approval/requires-approval.js';
import type { AnyTool } from '../tools/define-tool.js';

/** `tool.finished`'s data when the result was not spilled. */
export type FinishedData = Readonly<{ tool: string; durationMs: number }>;

/**
 * What a runtime knows of one tool before any call, made once when the runtime is made: a call
 * looks its tool up once and checks again nothing the tool cannot change.
 */
export interface ToolPlan {
  readonly tool: AnyTool;
  /**
   * `tool.started`'s data, the same every call: one frozen object per tool, shared by its events.
   * A host that keeps every event then keeps one object less per call (each kept object costs a
   * call about a quarter of a microsecond in garbage collection). The timeout travels with the
   * start so a status line can warn before it fires.
   */
  readonly started: Readonly<{ tool: string; timeoutMs?: number }>;
  /**
   * Whether, as far as the tool says, its calls may take the fast path: nothing to resolve,
   * acquire, approve, cache, check on output or retry (the run's phase and budget have a say too).
   */
  readonly plain: boolean;
  /** `tool.finished`'s data for the short durations most calls have, by duration: see {@link finishedData}. */
  readonly finished: FinishedData[];
}

/** The plans of a runtime's tools, by name. */
export function toolPlans(tools: ReadonlyMap<string, AnyTool>): ReadonlyMap<string, ToolPlan> {
  const plans = new Map<string, ToolPlan>();
  for (const [name, tool] of tools) {
    const started = Object.freeze(
      tool.timeoutMs === undefined ? { tool: tool.name } : { tool: tool.name, timeoutMs: tool.timeoutMs },
    );
    const plain =
      !tool.wants && !tool.needs && !mayAskApproval(tool) && !tool.cache && !tool.outputSchema && !tool.retry;
    plans.set(name, { tool, started, plain, finished: [] });
  }
  return plans;
}

/** Durations (ms) whose `tool.finished` data a tool shares between its calls. */
const sharedDurations = 16;

/**
 * `tool.finished`'s data for a call that took `durationMs`: for a short call (most are), one
 * frozen object per tool and duration, shared by its events as `tool.started`'s is — a host that
 * keeps every event keeps one object less per call.
 */
export function finishedData(plan: ToolPlan | undefined, toolName: string, durationMs: number): FinishedData {
  if (!plan || !(durationMs >= 0 && durationMs < sharedDurations)) return { tool: toolName, durationMs };
  let data = plan.finished[durationMs];
  if (!data) {
    data = Object.freeze({ tool: toolName, durationMs });
    plan.finished[durationMs] = data;
  }
  return data;
}
