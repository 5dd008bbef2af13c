import type { StandardSchemaV1 } from '@standard-schema/spec';
import { type ApprovalDecision, approvalDenial } from '../approval/approval-decision.js';
import {
  createMemoryPendingApprovals,
  type PendingApproval,
  type PendingApprovalStore,
} from '../approval/pending-approvals.js';
import { scopeKey } from '../artifacts/scope-key.js';
import type { ArtifactScope } from '../artifacts/types.js';
import type { CallFacts, RunFacts, RunStats } from '../context/create-context.js';
import { callSettled } from '../context/settled-guard.js';
import type { CallRequest, Identity, RunLedger, ToolDispatch, ToolResult } from '../context/types.js';
import type { ErrorInfo } from '../errors.js';
import type { EventLog, RunEvents } from '../events/event-log.js';
import { splitBudget } from '../output/split-budget.js';
import { allowedInPhase, type Phase } from '../policy/phase.js';
import { createTeardownRegistry, type TeardownRegistry } from '../teardown/teardown-registry.js';
import { toolSessionKey } from '../teardown/tool-session-key.js';
import { type AnyTool, type ToolSchema, toolSchema } from '../tools/define-tool.js';
import { argsInvalid, validate } from '../tools/schema.js';
import type { Workspace } from '../workspace/workspace.js';
import { admitCall, admitPolicy } from './admission.js';
import type { Resumed } from './approve-call.js';
import type { Attempt, Outcome } from './attempt.js';
import { completeCall } from './completion.js';
import { InflightCalls } from './inflight-calls.js';
import { type DispatchFactory, Invocation } from './invocation.js';
import { PendingCalls } from './pending-calls.js';
import type { ResumeOptions, StartRunOptions } from './run-api.js';
import { cancelledByCaller, nextCallId, runEnded, scopeFor, startedData } from './run-facts.js';
import { bindRunLedger } from './run-ledger.js';
import type { RuntimeServices } from './services.js';
import { cachedResult, cacheKeyFor, storeResult } from './tool-cache.js';

export type { ResumeOptions, Run, StartRunOptions } from './run-api.js';

/** A call on its way through the run: its facts, and what the run needs to finish it. */
interface CallState extends CallFacts {
  readonly tool: AnyTool;
  invocation: Invocation;
  budgetBytes: number;
  startedAt: number;
}

export { artifactScope } from './run-facts.js';

/**
 * A run, or — without a run id — the frame of a single call at a door that has no runs (MCP),
 * which records no run events.
 */
export class RunImpl implements RunFacts {
  readonly stats: RunStats = { progressDropped: 0, progressRejected: 0 };
  readonly state: Readonly<Record<string, unknown>>;
  readonly phase: Phase;
  readonly sessionId: string | undefined;
  readonly identity: Readonly<Identity> | undefined;
  readonly scope: ArtifactScope;
  private madeTaintKey: string | undefined;
  readonly teardown: TeardownRegistry;
  readonly ledger: RunLedger | undefined;
  readonly workspace: Workspace | undefined;
  private readonly maxUsd: number | undefined;
  private iterations = 0;
  private calls = 0;
  private finished: Promise<void> | undefined;
  /** Made when `signal` is first read: an AbortController costs microseconds, a run at a door may last one call. */
  private controller: AbortController | undefined;
  private readonly dispatchFactory: DispatchFactory | undefined;
  /** Calls in flight. */
  private readonly inflight = new InflightCalls();
  /** Where calls waiting for a person's approval are kept: the host's store, or memory. */
  private readonly pendingStore: PendingApprovalStore | undefined;
  /** Made on first use: most runs never wait for an approval. */
  private madePending: PendingCalls | undefined;

  constructor(
    readonly services: RuntimeServices,
    readonly runId: string | undefined,
    readonly log: EventLog,
    options: StartRunOptions,
  ) {
    this.phase = options.phase ?? 'act';
    this.sessionId = options.sessionId;
    this.identity = options.identity ? Object.freeze({ ...options.identity }) : undefined;
    this.state = Object.freeze({ ...options.state });
    this.scope = scopeFor(this.identity, runId);
    this.workspace = options.workspace ?? services.workspace;
    this.maxUsd = options.maxUsd;
    this.pendingStore = options.pendingApprovals;
    this.ledger =
      services.ledger && bindRunLedger(services.ledger, runId ?? `frame_${nextCallId()}`, this.maxUsd, log);
    this.teardown = createTeardownRegistry({
      honours: services.door.teardownScopes,
      doorName: services.door.name,
      timeoutMs: services.teardownTimeoutMs,
      onFired: ({ scope }) => log.emit('teardown.fired', { scope, count: 1 }),
      onFailed: ({ scope, toolName, error }) => log.emit('teardown.failed', { scope, tool: toolName, error }),
    });
    this.dispatchFactory = services.door.dispatch
      ? (parent, call) => this.childDispatch(parent, call)
      : undefined;
    if (options.onEvent) log.subscribe(options.onEvent);
    if (runId !== undefined && options.continuesAfterSeq === undefined) {
      const sessionId = options.sessionId;
      log.emit('run.started', sessionId ? { phase: this.phase, sessionId } : { phase: this.phase });
    }
    const outer = options.signal;
    if (outer?.aborted) void this.abort('the run signal was already aborted');
    else outer?.addEventListener('abort', () => void this.abort('the run signal fired'), { once: true });
  }

  /** Made on first use: most calls neither read nor raise the conversation's taint. */
  get taintKey(): string {
    this.madeTaintKey ??= scopeKey(this.scope);
    return this.madeTaintKey;
  }

  private get pending(): PendingCalls {
    this.madePending ??= new PendingCalls(
      this.pendingStore ?? createMemoryPendingApprovals(),
      this.runId,
      this.identity,
    );
    return this.madePending;
  }

  get events(): RunEvents {
    return this.log;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.finished) this.controller.abort();
    }
    return this.controller.signal;
  }

  listTools(): ToolSchema[] {
    return [...this.services.tools.values()]
      .filter((tool) => allowedInPhase(tool.effect, this.phase))
      .map(toolSchema);
  }

  call(request: CallRequest): Promise<ToolResult> {
    return this.start(request, ++this.iterations, this.services.outputBudgetBytes, undefined, undefined);
  }

  callBatch(requests: readonly CallRequest[]): Promise<ToolResult[]> {
    const iteration = ++this.iterations;
    const share = splitBudget(this.services.outputBudgetBytes, requests.length);
    return Promise.all(
      requests.map((request) => this.start(request, iteration, share, undefined, undefined)),
    );
  }

  async resume(
    approvalId: string,
    decision: ApprovalDecision,
    options: ResumeOptions = {},
  ): Promise<ToolResult> {
    const taken = this.pending.take(approvalId, decision);
    if (!taken.ok) return { ok: false, error: taken.error };
    const { callId, toolName, parentId, iteration, args, argsHash } = taken.pending;
    const tool = this.services.tools.get(toolName);
    const data = { tool: toolName, approvalId, approved: decision.approved };
    this.log.emit('approval.decided', data, callId, parentId);
    const facts = { toolCallId: callId, toolName, parentId, iteration, effect: tool?.effect ?? 'read' };
    // A tool that is gone (a deploy between the request and the decision) cannot run.
    if (!tool) return this.fail(facts, this.unknownTool(toolName));
    if (this.finished) return this.fail(facts, runEnded);
    if (!decision.approved) return this.fail(facts, approvalDenial(toolName, decision));
    // The approval binds the hash the person approved; admission checks it against the arguments
    // the tool is about to get, so arguments changed in storage since cannot run on it.
    const resumed = { approvalId, argsHash, ...(decision.reason ? { reason: decision.reason } : {}) };
    const invocation = new Invocation();
    this.inflight.add(invocation);
    const call: CallState = {
      ...facts,
      tool,
      invocation,
      budgetBytes: this.services.outputBudgetBytes,
      startedAt: Date.now(),
    };
    if (options.signal) invocation.listen(options.signal, cancelledByCaller);
    let result: ToolResult | Promise<ToolResult>;
    try {
      result = this.admitAndRun(call, args, resumed);
    } catch (thrown) {
      result = Promise.reject(thrown);
    }
    const done = Promise.resolve(result).finally(() => this.release(invocation, undefined));
    invocation.done = done;
    return done;
  }

  cancelPending(toolCallId: string): boolean {
    const pending = this.pending.cancel(toolCallId);
    if (!pending) return false;
    this.failPending(pending, cancelledByCaller);
    return true;
  }

  /** Files a call that was waiting for approval as failed: cancelled, or lapsed with its run. */
  private failPending(pending: PendingApproval, error: ErrorInfo): void {
    const { callId, toolName, parentId, iteration } = pending;
    const effect = this.services.tools.get(toolName)?.effect ?? 'read';
    this.fail({ toolCallId: callId, toolName, parentId, iteration, effect }, error);
  }

  abort(reason = 'the run was aborted'): Promise<void> {
    return this.finish('aborted', {
      kind: 'aborted',
      message: `The call was cancelled: ${reason}.`,
      retryable: false,
    });
  }

  end(): Promise<void> {
    return this.finish('ended', {
      kind: 'aborted',
      message: 'The run ended before the call finished.',
      retryable: false,
    });
  }

  private finish(status: 'ended' | 'aborted', error: ErrorInfo): Promise<void> {
    this.finished ??= (async () => {
      this.controller?.abort();
      const live = this.inflight.list();
      for (const invocation of live) invocation.abort(error);
      await Promise.all(live.map((invocation) => invocation.done));
      if (this.runId !== undefined) {
        if (this.services.door.teardownScopes.includes('run')) {
          await this.teardown.fire(
            'run',
            toolSessionKey({ identity: this.identity, runId: this.runId }, 'run'),
          );
        }
        this.services.approvals.tokens?.forgetRun(this.runId);
        // Approvals lapse with their run (a durable store must not keep them), and each waiting
        // call is settled, so its log does not end at approval.requested.
        if (this.madePending || this.pendingStore) {
          for (const lapsed of this.pending.clear()) this.failPending(lapsed, error);
        }
        this.log.emit('run.finished', { status, calls: this.calls });
      }
      this.log.close();
    })();
    return this.finished;
  }

  /**
   * Starts a call. A call that can end at once (a synchronous tool with no guards) ends before
   * this returns: no async frame, no extra turns of the event loop, nothing to clean up later.
   */
  private start(
    request: CallRequest,
    iteration: number,
    budgetBytes: number,
    parent: Attempt | undefined,
    parentId: string | undefined,
  ): Promise<ToolResult> {
    const invocation = new Invocation();
    this.inflight.add(invocation);
    if (parent) {
      parent.children ??= new Set();
      parent.children.add(invocation);
    }
    let result: ToolResult | Promise<ToolResult>;
    try {
      result = this.perform(request, iteration, budgetBytes, invocation, parentId);
    } catch (thrown) {
      result = Promise.reject(thrown);
    }
    if (!(result instanceof Promise)) {
      this.release(invocation, parent);
      return Promise.resolve(result);
    }
    const done = result.finally(() => this.release(invocation, parent));
    invocation.done = done;
    return done;
  }

  /** The call has ended: no longer in flight, nor listening to its caller. */
  private release(invocation: Invocation, parent: Attempt | undefined): void {
    invocation.unlisten?.();
    this.inflight.delete(invocation);
    parent?.children?.delete(invocation);
  }

  private perform(
    request: CallRequest,
    iteration: number,
    budgetBytes: number,
    invocation: Invocation,
    parentId: string | undefined,
  ): ToolResult | Promise<ToolResult> {
    const toolCallId = request.toolCallId ?? nextCallId();
    const tool = this.services.tools.get(request.tool);
    if (!tool || this.finished) {
      const call = {
        toolCallId,
        toolName: request.tool,
        parentId,
        iteration,
        effect: tool?.effect ?? 'read',
      };
      return this.fail(call, tool ? runEnded : this.unknownTool(request.tool));
    }
    this.calls++;
    const startedAt = Date.now();
    const call: CallState = {
      toolCallId,
      toolName: tool.name,
      parentId,
      iteration,
      effect: tool.effect,
      tool,
      invocation,
      budgetBytes,
      startedAt,
    };
    this.log.emit('tool.started', startedData(tool), toolCallId, parentId, startedAt);
    if (request.signal) invocation.listen(request.signal, cancelledByCaller);
    const refused = admitPolicy(this, tool, call, this.maxUsd);
    if (refused instanceof Promise) {
      return refused.then((error) =>
        error ? this.fail(call, error) : this.validateAndRun(call, request.args),
      );
    }
    return refused ? this.fail(call, refused) : this.validateAndRun(call, request.args);
  }

  private validateAndRun(call: CallState, args: unknown): ToolResult | Promise<ToolResult> {
    const parsed = validate(call.tool.inputSchema, args);
    return parsed instanceof Promise
      ? parsed.then((checked) => this.runValid(call, checked))
      : this.runValid(call, parsed);
  }

  private runValid(
    call: CallState,
    parsed: StandardSchemaV1.Result<unknown>,
  ): ToolResult | Promise<ToolResult> {
    if (parsed.issues) return this.fail(call, argsInvalid(call.toolName, parsed.issues));
    return this.admitAndRun(call, parsed.value, undefined);
  }

  /**
   * From valid arguments to a result: the guards, the cache, the tool, the transcript copy. A
   * call with no guards and no cache whose tool finishes at once gets its result at once.
   */
  private admitAndRun(
    call: CallState,
    args: unknown,
    resumed: Resumed | undefined,
  ): ToolResult | Promise<ToolResult> {
    const { tool } = call;
    let result: ToolResult | Promise<ToolResult>;
    try {
      result =
        hasGuards(tool, resumed) || (tool.cache && this.services.cache)
          ? this.guardedRun(call, args, resumed)
          : this.runTool(call, args);
    } catch (thrown) {
      result = Promise.reject(thrown);
    }
    return call.callTeardown || result instanceof Promise ? this.thenCallTeardown(call, result) : result;
  }

  /** Fires the call's `call`-scope cleanups, if it registered any, once its result is known. */
  private async thenCallTeardown(
    call: CallFacts,
    result: ToolResult | Promise<ToolResult>,
  ): Promise<ToolResult> {
    try {
      return await result;
    } finally {
      if (call.callTeardown) {
        const key = toolSessionKey(
          { identity: this.identity, runId: this.runId, toolCallId: call.toolCallId },
          'call',
        );
        await this.teardown.fire('call', key);
      }
    }
  }

  /** The guards (artifacts, policy, approval, credentials) and the cache around the tool. */
  private async guardedRun(
    call: CallState,
    args: unknown,
    resumed: Resumed | undefined,
  ): Promise<ToolResult> {
    const { tool } = call;
    if (hasGuards(tool, resumed)) {
      const given = args;
      const admission = await admitCall(this, tool, call, args, resumed, (request) =>
        this.pending.file(request, call, given),
      );
      if (!admission.ok) {
        if (
          admission.error.kind === 'approval-pending' ||
          admission.error.kind === 'authorization-required'
        ) {
          return { ok: false, error: admission.error };
        }
        return this.fail(call, admission.error);
      }
      args = admission.args;
    }
    if (call.invocation.aborted) return this.fail(call, call.invocation.aborted);
    const cacheKey =
      tool.cache && this.services.cache ? await cacheKeyFor(tool, args, this.scope) : undefined;
    if (!cacheKey) return this.runTool(call, args);
    const hit = await cachedResult(this.services.cache!, cacheKey);
    if (hit) {
      this.log.emit('tool.cached', { tool: tool.name }, call.toolCallId, call.parentId);
      return this.finishCall(call, hit.value);
    }
    const outcome = await this.attempt(call, args);
    if (!outcome.ok) return this.fail(call, outcome.error);
    await storeResult(this.services.cache!, cacheKey, outcome.value, tool.cache!.ttlMs);
    return this.finishCall(call, outcome.value);
  }

  /** Runs the tool (with its retries) and completes its result; at once when the tool is. */
  private runTool(call: CallState, args: unknown): ToolResult | Promise<ToolResult> {
    const { aborted } = call.invocation;
    if (aborted) return this.fail(call, aborted);
    const outcome = this.attempt(call, args);
    return outcome instanceof Promise
      ? outcome.then((ended) => this.settle(call, ended))
      : this.settle(call, outcome);
  }

  private attempt(call: CallState, args: unknown): Outcome | Promise<Outcome> {
    const { tool, invocation } = call;
    return tool.retry
      ? invocation.withRetries(tool, args, this, call, this.dispatchFactory)
      : invocation.attemptOnce(tool, args, this, call, this.dispatchFactory);
  }

  private settle(call: CallState, outcome: Outcome): ToolResult | Promise<ToolResult> {
    return outcome.ok ? this.finishCall(call, outcome.value) : this.fail(call, outcome.error);
  }

  private finishCall(call: CallState, value: unknown): ToolResult | Promise<ToolResult> {
    const result = completeCall(this, call.tool, call, value, call.budgetBytes);
    return result instanceof Promise
      ? result.then((settled) => this.recordFinish(call, settled))
      : this.recordFinish(call, result);
  }

  private recordFinish(call: CallState, result: ToolResult | ErrorInfo): ToolResult {
    if (!('ok' in result)) return this.fail(call, result);
    const endedAt = Date.now();
    const data: { tool: string; durationMs: number; spilled?: boolean } = {
      tool: call.toolName,
      durationMs: endedAt - call.startedAt,
    };
    if (result.ok && result.spilled) data.spilled = true;
    this.log.emit('tool.finished', data, call.toolCallId, call.parentId, endedAt);
    return result;
  }

  /** Makes `ctx.tools` for an attempt: child calls in this run, ended with their parent. */
  private childDispatch(parent: Attempt, call: CallFacts): ToolDispatch {
    return {
      call: (request) => {
        if (parent.settled) {
          const error = callSettled(call.toolName, 'ctx.tools.call', parent.result).info;
          return Promise.resolve({ ok: false, error });
        }
        return this.start(request, call.iteration, this.services.outputBudgetBytes, parent, call.toolCallId);
      },
    };
  }

  private unknownTool(name: string): ErrorInfo {
    const available = [...this.services.tools.keys()];
    return {
      kind: 'unknown-tool',
      message: `There is no tool named ${JSON.stringify(name)}. Available: ${available.join(', ') || '(none)'}.`,
      retryable: false,
      details: { available },
    };
  }

  /** Files the call as failed; its duration counts from `startedAt`, when it got that far. */
  private fail(call: CallFacts & { startedAt?: number }, error: ErrorInfo): ToolResult {
    const endedAt = Date.now();
    const durationMs = call.startedAt ? endedAt - call.startedAt : 0;
    const data = { tool: call.toolName, durationMs, error };
    this.log.emit('tool.failed', data, call.toolCallId, call.parentId, endedAt);
    return { ok: false, error };
  }
}

/** Whether a call must pass guards (artifacts, the trifecta, approval, credentials) before it runs. */
function hasGuards(tool: AnyTool, resumed: Resumed | undefined): boolean {
  return Boolean(tool.wants || tool.needs || tool.needsApproval || tool.effect === 'send' || resumed);
}
