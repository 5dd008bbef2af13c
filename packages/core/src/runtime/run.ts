import type { ApprovalDecision } from '../approval/approval.js';
import { approvalDenial } from '../approval/approval.js';
import { scopeKey } from '../artifacts/scope-key.js';
import type { ArtifactScope } from '../artifacts/types.js';
import type { CallFacts, RunFacts, RunStats } from '../context/create-context.js';
import type { CallRequest, Identity, RunLedger, ToolDispatch, ToolResult } from '../context/types.js';
import type { ErrorInfo } from '../errors.js';
import type { EventLog, RunEvents } from '../events/event-log.js';
import { budgetCheck } from '../ledger/budget-check.js';
import { splitBudget } from '../output/split-budget.js';
import { allowedInPhase, type Phase } from '../policy/phase.js';
import { createTeardownRegistry, type TeardownRegistry } from '../teardown/teardown-registry.js';
import { toolSessionKey } from '../teardown/tool-session-key.js';
import { type ToolSchema, toolSchema } from '../tools/define-tool.js';
import { argsInvalid, validate } from '../tools/schema.js';
import type { Workspace } from '../workspace/workspace.js';
import { admitCall, admitPolicy, type PendingCall } from './admission.js';
import type { Attempt } from './attempt.js';
import { completeCall } from './completion.js';
import { type DispatchFactory, Invocation } from './invocation.js';
import type { StartRunOptions } from './run-api.js';
import {
  cancelledByCaller,
  nextCallId,
  parentEnded,
  runEnded,
  scopeFor,
  unknownApproval,
} from './run-facts.js';
import type { RuntimeServices } from './services.js';
import { cachedResult, cacheKeyFor, storeResult } from './tool-cache.js';

export type { Run, StartRunOptions } from './run-api.js';
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
  readonly taintKey: string;
  readonly teardown: TeardownRegistry;
  readonly ledger: RunLedger | undefined;
  readonly workspace: Workspace | undefined;
  private readonly maxUsd: number | undefined;
  private iterations = 0;
  private calls = 0;
  private budgetWarned = false;
  private finished: Promise<void> | undefined;
  private readonly controller = new AbortController();
  private readonly dispatchFactory: DispatchFactory | undefined;
  /** Calls in flight. */
  private readonly inflight = new Set<Invocation>();
  /** Calls waiting for a person's approval, by approval id. */
  private readonly pending = new Map<string, PendingCall>();

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
    this.taintKey = scopeKey(this.scope);
    this.workspace = options.workspace ?? services.workspace;
    this.maxUsd = options.maxUsd;
    this.ledger = services.ledger && this.bindLedger();
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
    if (runId !== undefined) {
      const sessionId = options.sessionId;
      log.emit('run.started', sessionId ? { phase: this.phase, sessionId } : { phase: this.phase });
    }
    const outer = options.signal;
    if (outer?.aborted) void this.abort('the run signal was already aborted');
    else outer?.addEventListener('abort', () => void this.abort('the run signal fired'), { once: true });
  }

  get events(): RunEvents {
    return this.log;
  }

  get signal(): AbortSignal {
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

  async resume(approvalId: string, decision: ApprovalDecision): Promise<ToolResult> {
    const waiting = this.pending.get(approvalId);
    const resolution = this.services.approvals.decide(approvalId, decision, { runId: this.runId });
    if (!resolution.ok || !waiting) {
      return { ok: false, error: resolution.ok ? unknownApproval(approvalId) : resolution.error };
    }
    this.pending.delete(approvalId);
    const { tool, call, args } = waiting;
    const data = { tool: tool.name, approvalId, approved: decision.approved };
    this.log.emit('approval.decided', data, call.toolCallId, call.parentId);
    if (!decision.approved)
      return this.fail(tool.name, call, approvalDenial(tool.name, decision), Date.now());
    const token = this.services.approvals.issue(resolution.request);
    const approval = { token, approvalId, ...(decision.reason ? { reason: decision.reason } : {}) };
    const invocation = new Invocation();
    this.inflight.add(invocation);
    const done = this.admitAndRun(
      tool,
      call,
      args,
      invocation,
      this.services.outputBudgetBytes,
      Date.now(),
      approval,
    ).finally(() => this.inflight.delete(invocation));
    invocation.done = done;
    return done;
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
      this.controller.abort();
      const live = [...this.inflight];
      for (const invocation of live) invocation.abort(error);
      await Promise.all(live.map((invocation) => invocation.done));
      if (this.runId !== undefined) {
        if (this.services.door.teardownScopes.includes('run')) {
          await this.teardown.fire(
            'run',
            toolSessionKey({ identity: this.identity, runId: this.runId }, 'run'),
          );
        }
        this.services.approvals.forgetRun(this.runId);
        this.log.emit('run.finished', { status, calls: this.calls });
      }
      this.log.close();
    })();
    return this.finished;
  }

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
    const done = this.perform(request, iteration, budgetBytes, invocation, parent, parentId);
    invocation.done = done;
    return done;
  }

  private async perform(
    request: CallRequest,
    iteration: number,
    budgetBytes: number,
    invocation: Invocation,
    parent: Attempt | undefined,
    parentId: string | undefined,
  ): Promise<ToolResult> {
    const signal = request.signal;
    let onAbort: (() => void) | undefined;
    try {
      const toolCallId = request.toolCallId ?? nextCallId();
      const tool = this.services.tools.get(request.tool);
      const call: CallFacts = {
        toolCallId,
        toolName: tool?.name ?? request.tool,
        parentId,
        iteration,
        effect: tool?.effect ?? 'read',
      };
      if (!tool) return this.fail(request.tool, call, this.unknownTool(request.tool), 0);
      if (this.finished) return this.fail(tool.name, call, runEnded, 0);
      this.calls++;
      const startedAt = Date.now();
      // The timeout travels with the start so a status line can warn before it fires.
      const started =
        tool.timeoutMs === undefined ? { tool: tool.name } : { tool: tool.name, timeoutMs: tool.timeoutMs };
      this.log.emit('tool.started', started, toolCallId, parentId, startedAt);
      if (signal) {
        onAbort = () => invocation.abort(cancelledByCaller);
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }
      let refused = admitPolicy(this, tool, call, this.maxUsd);
      if (refused instanceof Promise) refused = await refused;
      if (refused) return this.fail(tool.name, call, refused, startedAt);
      let parsed = validate(tool.input, request.args);
      if (parsed instanceof Promise) parsed = await parsed;
      if (parsed.issues) return this.fail(tool.name, call, argsInvalid(tool.name, parsed.issues), startedAt);
      return await this.admitAndRun(tool, call, parsed.value, invocation, budgetBytes, startedAt, undefined);
    } finally {
      if (onAbort) signal!.removeEventListener('abort', onAbort);
      this.inflight.delete(invocation);
      parent?.children?.delete(invocation);
    }
  }

  /** From valid arguments to a result: the guards, the cache, the tool, the transcript copy. */
  private async admitAndRun(
    tool: PendingCall['tool'],
    call: CallFacts,
    args: unknown,
    invocation: Invocation,
    budgetBytes: number,
    startedAt: number,
    approved: { token: string; approvalId: string; reason?: string } | undefined,
  ): Promise<ToolResult> {
    try {
      const needsGuards =
        tool.wants || tool.needs || tool.needsApproval || tool.effect === 'send' || approved;
      if (needsGuards) {
        const admission = await admitCall(this, tool, call, args, approved, (waiting, id) =>
          this.pending.set(id, waiting),
        );
        if (!admission.ok) {
          if (
            admission.error.kind === 'approval-pending' ||
            admission.error.kind === 'authorization-required'
          ) {
            return { ok: false, error: admission.error };
          }
          return this.fail(tool.name, call, admission.error, startedAt);
        }
        args = admission.args;
      }
      if (invocation.aborted) return this.fail(tool.name, call, invocation.aborted, startedAt);
      const cacheKey =
        tool.cache && this.services.cache ? await cacheKeyFor(tool, args, this.scope) : undefined;
      if (cacheKey) {
        const hit = await cachedResult(this.services.cache!, cacheKey);
        if (hit) {
          this.log.emit('tool.cached', { tool: tool.name }, call.toolCallId, call.parentId);
          return this.finishCall(tool, call, hit.value, budgetBytes, startedAt);
        }
      }
      // A tool that finishes at once is not made to wait a turn of the event loop.
      let outcome = tool.retry
        ? invocation.withRetries(tool, args, this, call, this.dispatchFactory)
        : invocation.attemptOnce(tool, args, this, call, this.dispatchFactory);
      if (outcome instanceof Promise) outcome = await outcome;
      if (!outcome.ok) return this.fail(tool.name, call, outcome.error, startedAt);
      if (cacheKey) await storeResult(this.services.cache!, cacheKey, outcome.value, tool.cache!.ttlMs);
      const finished = this.finishCall(tool, call, outcome.value, budgetBytes, startedAt);
      return finished instanceof Promise ? await finished : finished;
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

  private finishCall(
    tool: PendingCall['tool'],
    call: CallFacts,
    value: unknown,
    budgetBytes: number,
    startedAt: number,
  ): ToolResult | Promise<ToolResult> {
    const result = completeCall(this, tool, call, value, budgetBytes);
    return result instanceof Promise
      ? result.then((settled) => this.recordFinish(tool, call, settled, startedAt))
      : this.recordFinish(tool, call, result, startedAt);
  }

  private recordFinish(
    tool: PendingCall['tool'],
    call: CallFacts,
    result: ToolResult | ErrorInfo,
    startedAt: number,
  ): ToolResult {
    if (!('ok' in result)) return this.fail(tool.name, call, result, startedAt);
    const endedAt = Date.now();
    const data: { tool: string; durationMs: number; spilled?: boolean } = {
      tool: tool.name,
      durationMs: endedAt - startedAt,
    };
    if (result.ok && result.spilled) data.spilled = true;
    this.log.emit('tool.finished', data, call.toolCallId, call.parentId, endedAt);
    return result;
  }

  /** Makes `ctx.tools` for an attempt: child calls in this run, ended with their parent. */
  private childDispatch(parent: Attempt, call: CallFacts): ToolDispatch {
    return {
      call: (request) => {
        if (parent.settled) return Promise.resolve({ ok: false, error: parentEnded });
        return this.start(request, call.iteration, this.services.outputBudgetBytes, parent, call.toolCallId);
      },
    };
  }

  private bindLedger(): RunLedger {
    const ledger = this.services.ledger!;
    const runId = this.runId ?? `frame_${nextCallId()}`;
    return {
      record: async (entry) => {
        await ledger.record({ ...entry, runId });
        if (this.maxUsd === undefined) return;
        const spentUsd = await ledger.totalUsd(runId);
        const verdict = budgetCheck({ spentUsd, maxUsd: this.maxUsd });
        if (verdict === 'warning' && !this.budgetWarned) {
          this.budgetWarned = true;
          this.log.emit('budget.warning', { spentUsd, maxUsd: this.maxUsd });
        }
      },
      totalUsd: () => ledger.totalUsd(runId),
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

  private fail(tool: string, call: CallFacts, error: ErrorInfo, startedAt: number): ToolResult {
    const endedAt = Date.now();
    const durationMs = startedAt ? endedAt - startedAt : 0;
    this.log.emit('tool.failed', { tool, durationMs, error }, call.toolCallId, call.parentId, endedAt);
    return { ok: false, error };
  }
}
