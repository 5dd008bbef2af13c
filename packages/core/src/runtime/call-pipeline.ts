// How a call goes from request to result. Two ways, one place: the fast path takes exactly
// the trivial call (nothing to check but its arguments, nothing to do after but the transcript)
// and ends it before run.call returns; at its first promise it hands the call to the pipeline,
// which every other call takes from the top: policy → validate → guards → cache → attempts →
// complete → record, the call's cleanups in `finally`.
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { CallRequest, ToolResult } from '../context/types.js';
import type { ErrorInfo } from '../errors.js';
import { allowedInPhase } from '../policy/phase.js';
import { teardownKey } from '../teardown/teardown-key.js';
import { argsInvalid, validate } from '../tools/schema.js';
import { unknownToolError } from '../tools/unknown-tool.js';
import type { Outcome } from './attempt.js';
import { passGuards, policyRefusal } from './call-guards.js';
import type { CallingRun, CallState } from './call-state.js';
import { completeAtOnce, completeCall } from './completion.js';
import type { Invocation } from './invocation.js';
import { type CallFacts, cancelledByCaller, type RunFacts, runEnded } from './run-facts.js';
import { cachedResult, cacheKeyFor, storeResult } from './tool-cache.js';
import { finishedData } from './tool-plan.js';

/**
 * Where a call enters the pipeline, and what it brings. A call from the fast path brings what it
 * already has; the stages before that pass it unchanged (it has no budget, guards or cache).
 */
export interface Entry {
  /** The arguments: as asked (run.call), or as validated before the call waited (run.resume). */
  args: unknown;
  /** From the fast path: its validation, which did not finish at once. */
  validation?: Promise<StandardSchemaV1.Result<unknown>>;
  /** From the fast path: how the tool it ran ended (or will), for the stages after the attempt. */
  outcome?: Outcome | Promise<Outcome>;
}

/**
 * Starts a call: its state and `tool.started`, or its failure when it cannot start. Then the fast
 * path: a call with no budget to check, no guards, no cache, no output schema and no retries,
 * whose validation and `execute` finish at once and whose result fits its budget, ends here with
 * no promise made. Any other call, or this one at its first promise, goes on in {@link pipeline}.
 * One function on purpose: the engine optimizes it as a whole, which the trivial call's cost
 * (the benchmark's `run.call` overhead) depends on.
 */
export function startCall(
  run: CallingRun,
  request: CallRequest,
  toolCallId: string,
  iteration: number,
  budgetBytes: number,
  invocation: Invocation,
  parentId: string | undefined,
  startedAt: number,
): ToolResult | Promise<ToolResult> {
  const { plans } = run.services;
  const plan = plans.get(request.tool);
  if (!plan || run.ended) {
    const facts = {
      toolCallId,
      toolName: request.tool,
      parentId,
      iteration,
      effect: plan?.tool.effect ?? 'read',
    };
    return fail(run, facts, plan ? runEnded : unknownToolError(request.tool, plans.keys()));
  }
  const { tool } = plan;
  run.calls++;
  const call: CallState = {
    toolCallId,
    toolName: tool.name,
    parentId,
    iteration,
    effect: tool.effect,
    tool,
    plan,
    invocation,
    budgetBytes,
    startedAt,
    meta: request.meta,
  };
  run.log.emitCallEvent('tool.started', plan.started, toolCallId, parentId, startedAt);
  if (request.signal) invocation.listen(request.signal, cancelledByCaller);
  const { args } = request;
  const trivial =
    plan.plain && allowedInPhase(tool.effect, run.phase) && (run.maxUsd === undefined || !run.ledger);
  if (!trivial) return pipeline(run, call, { args });
  const parsed = validate(tool.inputSchema, args);
  if (parsed instanceof Promise) return pipeline(run, call, { args, validation: parsed });
  if (parsed.issues) return fail(run, call, argsInvalid(call.toolName, parsed.issues));
  const outcome = invocation.attemptOnce(tool, parsed.value, run, call, run.dispatch);
  // A tool that registered a call cleanup has it fired in the pipeline's `finally`.
  if (outcome instanceof Promise || call.callTeardown) return pipeline(run, call, { args, outcome });
  if (!outcome.ok) return fail(run, call, outcome.error);
  const result = completeAtOnce(run, call, outcome.value);
  return result ? record(run, call, result) : pipeline(run, call, { args, outcome });
}

/** Every call that is not trivial, top to bottom; run.resume enters here too. */
export async function pipeline(run: CallingRun, call: CallState, entry: Entry): Promise<ToolResult> {
  try {
    if (entry.outcome) return await conclude(run, call, await entry.outcome);
    let { args } = entry;
    // A resumed call met the policy and was validated before it waited; arguments its host brought
    // back are validated again (the approval token then checks they are the ones approved).
    if (!call.resumed || call.resumed.validate) {
      const refusal = !call.resumed && (await policyRefusal(run, call));
      if (refusal) return fail(run, call, refusal);
      const parsed = await (entry.validation ?? validate(call.tool.inputSchema, args));
      if (parsed.issues) return fail(run, call, argsInvalid(call.toolName, parsed.issues));
      args = parsed.value;
    }
    const verdict = await passGuards(run, call, args);
    if (!verdict.ok) {
      const { error } = verdict;
      // A call that waits for a person is not over: it is settled when decided, cancelled or lapsed.
      const waits = error.kind === 'approval-pending' || error.kind === 'authorization-required';
      return waits ? { ok: false, error } : fail(run, call, error);
    }
    args = verdict.args;
    if (call.invocation.aborted) return fail(run, call, call.invocation.aborted);
    const { cache } = run.services;
    const cacheKey = call.tool.cache && cache ? await cacheKeyFor(call.tool, args, run.scope) : undefined;
    const hit = cacheKey ? await cachedResult(cache!, cacheKey) : undefined;
    if (hit) {
      run.log.emit('tool.cached', { tool: call.toolName }, call.toolCallId, call.parentId);
      return await conclude(run, call, { ok: true, value: hit.value });
    }
    const outcome = await attempts(run, call, args);
    if (outcome.ok && cacheKey) await storeResult(cache!, cacheKey, outcome.value, call.tool.cache!.ttlMs);
    return await conclude(run, call, outcome);
  } finally {
    if (call.callTeardown) {
      const { identity, runId } = run;
      await run.teardown.fire('call', teardownKey({ identity, runId, toolCallId: call.toolCallId }, 'call'));
    }
  }
}

/** The tool, with its retries. */
function attempts(run: CallingRun, call: CallState, args: unknown): Outcome | Promise<Outcome> {
  const { tool, invocation } = call;
  return tool.retry
    ? invocation.withRetries(tool, args, run, call, run.dispatch)
    : invocation.attemptOnce(tool, args, run, call, run.dispatch);
}

/** complete → record: the result the caller gets from how the tool ended, and its event. */
async function conclude(run: CallingRun, call: CallState, outcome: Outcome): Promise<ToolResult> {
  if (!outcome.ok) return fail(run, call, outcome.error);
  const completed = await completeCall(run, call, outcome.value);
  return 'ok' in completed ? record(run, call, completed) : fail(run, call, completed);
}

/** Records the call's end: `tool.finished`, its duration counted from `startedAt`. */
export function record(run: RunFacts, call: CallState, result: ToolResult): ToolResult {
  const endedAt = Date.now();
  const durationMs = endedAt - call.startedAt;
  const data =
    result.ok && result.spilled
      ? { tool: call.toolName, durationMs, spilled: true }
      : finishedData(call.plan, call.toolName, durationMs);
  call.invocation.endedAt = endedAt;
  run.log.emitCallEvent('tool.finished', data, call.toolCallId, call.parentId, endedAt);
  return result;
}

/** Files the call as failed; its duration counts from `startedAt`, when it got that far. */
export function fail(
  run: RunFacts,
  call: CallFacts & { startedAt?: number; invocation?: Invocation },
  error: ErrorInfo,
): ToolResult {
  const endedAt = Date.now();
  if (call.invocation) call.invocation.endedAt = endedAt;
  const durationMs = call.startedAt ? endedAt - call.startedAt : 0;
  const data = { tool: call.toolName, durationMs, error };
  run.log.emitCallEvent('tool.failed', data, call.toolCallId, call.parentId, endedAt);
  return { ok: false, error };
}
