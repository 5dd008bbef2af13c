import type { ApprovalPort } from '../approval/approval.js';
import { type ApprovalDecision, approvalDenial } from '../approval/approval-decision.js';
import {
  createMemoryPendingApprovals,
  type OpenApproval,
  type PendingApproval,
  type PendingApprovalStore,
} from '../approval/pending-approvals.js';
import { scopeKey } from '../artifacts/scope-key.js';
import type { ArtifactMeta, ArtifactScope } from '../artifacts/types.js';
import type { Answered, AskAnswer, AskUser, OpenAsk } from '../ask/ask.js';
import type { CheckedAsk } from '../ask/check-ask.js';
import { callSettled } from '../context/settled-guard.js';
import type { CallRequest, Identity, RunLedger, ToolDispatch, ToolResult } from '../context/types.js';
import type { ErrorInfo } from '../errors.js';
import type { EventLog, RunEvents } from '../events/event-log.js';
import { splitBudget } from '../output/split-budget.js';
import { allowedInPhase, type Phase } from '../policy/phase.js';
import { teardownKey } from '../teardown/teardown-key.js';
import { createTeardownRegistry, type TeardownRegistry } from '../teardown/teardown-registry.js';
import { type ToolSchema, toolSchema } from '../tools/define-tool.js';
import { unknownToolError } from '../tools/unknown-tool.js';
import type { Workspace } from '../workspace/workspace.js';
import type { Attempt } from './attempt.js';
import {
  type CallHandle,
  type CallRecord,
  type CallStore,
  callHandleOf,
  createMemoryCallStore,
  interrupted,
  isSettled,
  keptResult,
  statusOf,
} from './call-book.js';
import { fail, pipeline, startCall } from './call-pipeline.js';
import type { CallingRun, CallState } from './call-state.js';
import { InflightCalls } from './inflight-calls.js';
import type { DispatchFactory } from './invocation.js';
import type { Decided, ResumeOptions, StartRunOptions } from './run-api.js';
import { RunApprovals } from './run-approvals.js';
import {
  type CallFacts,
  cancelledByCaller,
  nextCallId,
  type RunStats,
  runEnded,
  scopeFor,
  sharesTaintKey,
} from './run-facts.js';
import { bindRunLedger } from './run-ledger.js';
import { SavedArtifacts } from './saved-artifacts.js';
import type { RuntimeServices } from './services.js';

export type { ResumeOptions, Run, StartRunOptions } from './run-api.js';
export { artifactScope } from './run-facts.js';

/**
 * The frame calls run in: a run (with a run id, its events and call handles), or the frame of a
 * single call at a door that has no runs (MCP, `callOnce`), which records no run events and keeps
 * no handles. One class for both, since a call needs the same facts from either.
 */
export class RunFrame implements CallingRun {
  readonly stats: RunStats = { reportsDropped: 0, reportsRejected: 0 };
  readonly state: Readonly<Record<string, unknown>>;
  readonly phase: Phase;
  readonly sessionId: string | undefined;
  readonly identity: Readonly<Identity> | undefined;
  readonly scope: ArtifactScope;
  private madeTaintKey: string | undefined;
  /** Whether this run holds its taint key, which it lets go when it ends. */
  private holdsTaint = false;
  readonly teardown: TeardownRegistry;
  readonly ledger: RunLedger | undefined;
  readonly workspace: Workspace | undefined;
  readonly maxUsd: number | undefined;
  private iterations = 0;
  /** Calls started, for `run.finished`. */
  calls = 0;
  private finished: Promise<void> | undefined;
  /** Made when `signal` is first read: an AbortController costs microseconds, a run at a door may last one call. */
  private controller: AbortController | undefined;
  readonly dispatch: DispatchFactory | undefined;
  /** Calls in flight. */
  private readonly inflight = new InflightCalls();
  /** Where calls waiting for a person's approval are kept: the host's store, or memory. */
  private readonly pendingStore: PendingApprovalStore | undefined;
  /** Made on first use: most runs never wait for an approval. */
  private madeApprovals: RunApprovals | undefined;
  /** For the frame of one call at a door that can ask a person (`callOnce`'s `decidePending`). */
  readonly decidePending: ApprovalPort | undefined;
  /** Every call's record, the one owner of call handles; none for the frame of one call. */
  readonly book: CallStore | undefined;
  /** For the frame of one call at a door that can ask a person (`callOnce`'s `askUser`). */
  readonly askUser: AskUser | undefined;
  /** Whether a person can answer the run's asks (`startRun({ canAsk })`). */
  readonly canAsk: boolean;
  private waitingAsks: Map<string, (answer: AskAnswer) => void> | undefined;
  /** What the calls in flight saved, for their settled records; made when a call first saves. */
  private saved: SavedArtifacts | undefined;

  constructor(
    readonly services: RuntimeServices,
    readonly runId: string | undefined,
    readonly log: EventLog,
    options: StartRunOptions & { anonymousScope?: string; decidePending?: ApprovalPort; askUser?: AskUser },
  ) {
    this.decidePending = options.decidePending;
    this.askUser = options.askUser;
    this.canAsk = options.canAsk !== false;
    this.phase = options.phase ?? 'act';
    this.sessionId = options.sessionId;
    this.identity = options.identity ? Object.freeze({ ...options.identity }) : undefined;
    this.state = Object.freeze({ ...options.state });
    this.scope = scopeFor(this.identity, runId ?? options.anonymousScope);
    // A key other runs share is held from the start, so what they raised stays while this run lives.
    if (sharesTaintKey(this.identity, runId, options.anonymousScope)) this.holdTaintKey();
    this.workspace = options.workspace ?? services.workspace;
    this.maxUsd = options.maxUsd;
    this.pendingStore = options.pendingApprovals;
    if (runId !== undefined) this.book = options.calls ?? createMemoryCallStore();
    this.ledger =
      services.ledger && bindRunLedger(services.ledger, runId ?? `frame_${nextCallId()}`, this.maxUsd, log);
    this.teardown = createTeardownRegistry({
      honours: services.door.teardownScopes,
      doorName: services.door.name,
      timeoutMs: services.teardownTimeoutMs,
      onFired: ({ scope }) => log.emit('teardown.fired', { scope, count: 1 }),
      onFailed: ({ scope, toolName, error }) => log.emit('teardown.failed', { scope, tool: toolName, error }),
    });
    this.dispatch = services.door.dispatch ? (parent, call) => this.childDispatch(parent, call) : undefined;
    if (options.onEvent) log.subscribe(options.onEvent);
    if (runId !== undefined && options.continuesAfterSeq === undefined) {
      const sessionId = options.sessionId;
      log.emit('run.started', sessionId ? { phase: this.phase, sessionId } : { phase: this.phase });
    }
    // A run taken up again after its host restarted: the calls its store says were running were
    // cut off (this process never ran them), and are settled now.
    if (options.continuesAfterSeq !== undefined) this.recover();
    const outer = options.signal;
    if (outer?.aborted) void this.abort('the run signal was already aborted');
    else outer?.addEventListener('abort', () => void this.abort('the run signal fired'), { once: true });
  }

  /** The asks of this run's calls waiting in this process, by id: what `answer` wakes. */
  get askWaiters(): Map<string, (answer: AskAnswer) => void> {
    this.waitingAsks ??= new Map();
    return this.waitingAsks;
  }
  get doorName(): string {
    return this.services.door.name;
  }

  /** Whether the call of this id has a record that is not settled. */
  private inFlight(toolCallId: string): boolean {
    const status = this.book?.get(toolCallId)?.status;
    return status !== undefined && !isSettled(status);
  }

  /** Notes what a call saved or deleted, for its settled record (only in a run, whose calls have records). */
  noteArtifact(call: CallFacts, change: ArtifactMeta | string): void {
    if (!this.book) return;
    this.saved ??= new SavedArtifacts();
    this.saved.note(call.toolCallId, change);
  }

  /** A call's ask (`ctx.ask`): loaded with the first, as most runs never ask. */
  ask(call: CallFacts, key: string, request: CheckedAsk, signal: AbortSignal): Promise<AskAnswer> {
    return import('./run-asks.js').then((asks) => asks.ask(this, call, key, request, signal));
  }

  asks(): OpenAsk[] {
    const open: OpenAsk[] = [];
    for (const record of this.book?.open() ?? []) if (record.asks) open.push(...record.asks);
    return open.sort((a, b) => a.askedAt - b.askedAt);
  }

  pendingApprovals(): OpenApproval[] {
    return this.madeApprovals || this.pendingStore ? this.approvals.open() : [];
  }

  async answer(askId: string, answer: AskAnswer): Promise<Answered> {
    const { answerAsk } = await import('./run-asks.js');
    return answerAsk(this, askId, answer);
  }

  /** Made on first use: most calls neither read nor raise the conversation's taint. */
  get taintKey(): string {
    return this.madeTaintKey ?? this.holdTaintKey();
  }

  /** Makes the taint key and holds it until the run ends (a run already ending holds nothing). */
  private holdTaintKey(): string {
    const key = scopeKey(this.scope);
    this.madeTaintKey = key;
    this.holdsTaint = !this.finished;
    return this.holdsTaint ? this.services.taint.hold(key) : key;
  }

  get approvals(): RunApprovals {
    this.madeApprovals ??= new RunApprovals(
      this.pendingStore ?? createMemoryPendingApprovals(),
      this.runId,
      this.identity,
    );
    return this.madeApprovals;
  }

  get ended(): boolean {
    return this.finished !== undefined;
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

  callStatus(toolCallId: string): CallHandle | undefined {
    const record = this.book?.get(toolCallId);
    return record && callHandleOf(record);
  }

  openCalls(): CallHandle[] {
    if (!this.book) return [];
    return Array.from(this.book.open(), callHandleOf).sort((a, b) => a.startedAt - b.startedAt);
  }

  resume(approvalId: string, decision: ApprovalDecision, options: ResumeOptions = {}): Promise<ToolResult> {
    const decided = this.decide(approvalId, decision, options);
    return decided.taken ? decided.result : Promise.resolve({ ok: false, error: decided.error });
  }

  decide(approvalId: string, decision: ApprovalDecision, options: ResumeOptions = {}): Decided {
    const taken = this.approvals.take(approvalId, decision);
    if (!taken.ok) return { taken: false, reason: taken.reason, error: taken.error };
    const { callId, toolName, parentId, iteration, args, argsHash } = taken.pending;
    const tool = this.services.tools.get(toolName);
    const data = { tool: toolName, approvalId, approved: decision.approved };
    this.log.emit('approval.decided', data, callId, parentId);
    const facts = { toolCallId: callId, toolName, parentId, iteration, effect: tool?.effect ?? 'read' };
    const record = this.reopen(taken.pending);
    const settled = (result: ToolResult) => ({
      taken: true as const,
      toolCallId: callId,
      result: Promise.resolve(this.settle(record, result)),
    });
    // A tool that is gone (a deploy between the request and the decision) cannot run.
    if (!tool) return settled(fail(this, facts, unknownToolError(toolName, this.services.tools.keys())));
    if (this.finished) return settled(fail(this, facts, runEnded));
    if (!decision.approved) return settled(fail(this, facts, approvalDenial(toolName, decision)));
    // The approval binds the hash the person approved; the guards check it against the arguments
    // the tool is about to get, so arguments changed in storage, or by the host, cannot run on it.
    const given = 'args' in options;
    const resumed = { approvalId, argsHash, reason: decision.reason, validate: given };
    const invocation = this.inflight.track(undefined);
    invocation.callId = callId;
    invocation.approvalId = approvalId;
    const budgetBytes = this.services.outputBudgetBytes;
    const { meta } = options;
    const call: CallState = { ...facts, tool, invocation, budgetBytes, startedAt: Date.now(), resumed, meta };
    if (options.signal) invocation.listen(options.signal, cancelledByCaller);
    const entry = { args: given ? options.args : args };
    const done = pipeline(this, call, entry).then((result) => this.settle(record, result));
    return {
      taken: true,
      toolCallId: callId,
      result: this.inflight.releaseWhenDone(invocation, undefined, done),
    };
  }

  cancel(toolCallId: string, reason?: string): boolean {
    const error: ErrorInfo = reason
      ? { kind: 'aborted', message: `The call was cancelled: ${reason}.`, retryable: false }
      : cancelledByCaller;
    const running = this.inflight.find(toolCallId);
    if (running) {
      running.abort(error);
      return true;
    }
    const pending = this.approvals.cancel(toolCallId);
    if (!pending) return false;
    this.failPending(pending, error);
    return true;
  }

  /** Files a call that was waiting for approval as failed: cancelled, or lapsed with its run. */
  private failPending(pending: PendingApproval, error: ErrorInfo): void {
    const { callId, toolName, parentId, iteration } = pending;
    const effect = this.services.tools.get(toolName)?.effect ?? 'read';
    const result = fail(this, { toolCallId: callId, toolName, parentId, iteration, effect }, error);
    this.settle(this.reopen(pending), result);
  }

  /** The record of a call that waited for approval (made again if its store lost it). */
  private reopen(pending: PendingApproval): CallRecord | undefined {
    if (!this.book) return undefined;
    const record = this.book.get(pending.callId) ?? {
      toolCallId: pending.callId,
      tool: pending.toolName,
      status: 'input_required',
      startedAt: pending.requestedAt,
      updatedAt: pending.requestedAt,
      iteration: pending.iteration,
      ...(pending.parentId === undefined ? {} : { parentId: pending.parentId }),
    };
    record.status = 'working';
    record.updatedAt = Date.now();
    delete record.approvalId;
    this.book.put(record);
    return record;
  }

  /** Files what a call came to in its record: its status and, settled, its result. */
  private settle(record: CallRecord | undefined, result: ToolResult, endedAt = Date.now()): ToolResult {
    if (record && this.book) {
      const { toolCallId, tool, startedAt, iteration, parentId, attempts } = record;
      const settled = settledRecord(
        toolCallId,
        tool,
        startedAt,
        iteration,
        parentId,
        attempts,
        endedAt,
        result,
      );
      // A call waiting for approval goes on saving once it is decided.
      const saved =
        settled.status === 'input_required'
          ? undefined
          : this.saved?.take(toolCallId, parentId, (id) => this.inFlight(id));
      if (saved) settled.artifacts = saved;
      this.book.put(settled);
    }
    return result;
  }

  /**
   * Settles the calls this run's store says were running, which a restart of its host cut off:
   * a top-level call of an idempotent tool with attempts left runs again (a `tool.retry` event,
   * then its pipeline from the top); any other fails as `interrupted`.
   */
  private recover(): void {
    if (!this.book) return;
    // A call waiting for an answer was running too: its ask stays open for the call run again.
    const cut = [...this.book.open()].filter((record) => record.status === 'working' || record.asks);
    for (const record of cut) {
      const tool = this.services.tools.get(record.tool);
      const attempts = (record.attempts ?? 1) + 1;
      const facts = {
        toolCallId: record.toolCallId,
        toolName: record.tool,
        parentId: record.parentId,
        iteration: record.iteration,
        effect: tool?.effect ?? 'read',
      };
      const error = interrupted(record.tool);
      const again = tool?.idempotent && record.parentId === undefined && 'args' in record && !this.finished;
      if (!again || attempts > Math.max(1, tool.retry?.attempts ?? 2)) {
        this.settle(record, fail(this, { ...facts, startedAt: record.startedAt }, error));
        continue;
      }
      this.log.emit(
        'tool.retry',
        { tool: tool.name, attempt: attempts, delayMs: 0, error },
        record.toolCallId,
      );
      record.attempts = attempts;
      record.updatedAt = Date.now();
      this.book.put(record);
      const invocation = this.inflight.track(undefined);
      invocation.callId = record.toolCallId;
      const budgetBytes = this.services.outputBudgetBytes;
      const call: CallState = { ...facts, tool, invocation, budgetBytes, startedAt: record.startedAt };
      this.calls++;
      const done = pipeline(this, call, { args: record.args }).then((result) => this.settle(record, result));
      void this.inflight.releaseWhenDone(invocation, undefined, done);
    }
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
          await this.teardown.fire('run', teardownKey({ identity: this.identity, runId: this.runId }, 'run'));
        }
        // Approvals lapse with their run (a durable store must not keep them), and each waiting
        // call is settled, so its log does not end at approval.requested.
        if (this.madeApprovals || this.pendingStore) {
          for (const lapsed of this.approvals.clear()) this.failPending(lapsed, error);
        }
        this.log.emit('run.finished', { status, calls: this.calls });
      }
      if (this.holdsTaint) this.services.taint.release(this.taintKey);
      this.log.close();
    })();
    return this.finished;
  }

  /**
   * Starts a call, tracked in flight until it ends. A trivial call ends before this returns (no
   * async frame, nothing to clean up later).
   */
  private start(
    request: CallRequest,
    iteration: number,
    budgetBytes: number,
    parent: Attempt | undefined,
    parentId: string | undefined,
  ): Promise<ToolResult> {
    const { book } = this;
    let { toolCallId } = request;
    // A call's id names its handle: a second call under a known id would take it over. An id the
    // run makes is new (nextCallId: a random prefix per process and a counter), so only a
    // caller's own is looked up.
    if (toolCallId === undefined) toolCallId = nextCallId();
    else if (book?.get(toolCallId)) return Promise.resolve({ ok: false, error: duplicateCall(toolCallId) });
    const startedAt = Date.now();
    const invocation = this.inflight.track(parent);
    invocation.callId = toolCallId;
    let result: ToolResult | Promise<ToolResult>;
    try {
      result = startCall(this, request, toolCallId, iteration, budgetBytes, invocation, parentId, startedAt);
    } catch (thrown) {
      result = Promise.reject(thrown);
    }
    if (result instanceof Promise) {
      // Its record is filed once the call waits: a call that ends at once, in the same turn, only
      // ever has its settled record (nothing could see, or outlive, its open one).
      let settled = result;
      if (book) {
        const record: CallRecord = {
          toolCallId,
          tool: request.tool,
          status: 'working',
          startedAt,
          updatedAt: startedAt,
          iteration,
        };
        if (parentId !== undefined) record.parentId = parentId;
        record.args = request.args;
        book.put(record);
        settled = result.then((done) => this.settle(record, done, invocation.endedAt));
      }
      return this.inflight.releaseWhenDone(invocation, parent, settled);
    }
    // A call that ended at once is released at once.
    this.inflight.release(invocation, parent);
    if (book) {
      // Its end is when its last event was filed (one reading of the clock less per call).
      const endedAt = invocation.endedAt ?? Date.now();
      book.put(
        settledRecord(toolCallId, request.tool, startedAt, iteration, parentId, undefined, endedAt, result),
      );
    }
    return Promise.resolve(result);
  }

  /** Makes `ctx.tools` for an attempt: child calls in this run, ended with their parent. */
  private childDispatch(parent: Attempt, call: CallFacts): ToolDispatch {
    return {
      call: (request) => {
        if (parent.settled) {
          const error = callSettled(call.toolName, 'ctx.tools.call', parent.result).info;
          return Promise.resolve({ ok: false, error });
        }
        const budgetBytes = this.services.outputBudgetBytes;
        return this.start(request, call.iteration, budgetBytes, parent, call.toolCallId);
      },
    };
  }
}

/**
 * A call's record once its answer is known: its status and, settled, its result. A new record
 * rather than the open one less its arguments and asks: an object that loses properties becomes
 * a slow dictionary, on every call.
 */
function settledRecord(
  toolCallId: string,
  tool: string,
  startedAt: number,
  iteration: number,
  parentId: string | undefined,
  attempts: number | undefined,
  updatedAt: number,
  result: ToolResult,
): CallRecord {
  const status = statusOf(result);
  // One literal for the common case (a settled top-level call): no field added after it is made.
  const record: CallRecord =
    status === 'input_required'
      ? { toolCallId, tool, status, startedAt, updatedAt, iteration }
      : { toolCallId, tool, status, startedAt, updatedAt, iteration, result: keptResult(result) };
  if (parentId !== undefined) record.parentId = parentId;
  if (attempts !== undefined) record.attempts = attempts;
  if (!result.ok && status === 'input_required' && typeof result.error.details?.approvalId === 'string') {
    record.approvalId = result.error.details.approvalId;
  }
  return record;
}

function duplicateCall(toolCallId: string): ErrorInfo {
  return {
    kind: 'conflict',
    message: `This run already has a call with id ${JSON.stringify(toolCallId)}; give each call its own id (or leave it out).`,
    retryable: false,
    details: { toolCallId },
  };
}
