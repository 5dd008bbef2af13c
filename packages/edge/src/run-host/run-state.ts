import {
  type ApprovalDecision,
  type Identity,
  type Run,
  type Runtime,
  type ToolEvent,
  type ToolResult,
  unknownToolError,
} from '@toolctx/core';
import { ok, type Reply, refuse } from '../door-error.js';
import { sameIdentity } from '../same-identity.js';
import { createChannel, defaultHeartbeatMs } from '../sse/channel.js';
import { answerCall, type CallAnswerOf } from './call-answer.js';
import { defaultLimits, limitExceeded, type RunLimits } from './limits.js';
import type { RunLog, RunRecord } from './run-log.js';
import type { CallAnswer, CallFormat, CancelInfo, DoorCall, RunInfo, RunInit } from './types.js';
import { eventMessage, jsonSafe } from './wire-format.js';

/** A reader of the run's events; `message` is the event as SSE bytes, encoded once for all readers. */
type Listener = (event: ToolEvent, message: Uint8Array) => void;

/** Options of a {@link RunState}: its limits, its streams' heartbeat, and who hears of its end. */
export interface RunStateOptions extends RunLimits {
  /** How often an open stream writes its heartbeat, which also finds readers that left. Default 500 ms. */
  heartbeatMs?: number;
  /** Called once, when the run has finished however it ended (a DELETE, the idle alarm). */
  onFinished?: (record: RunRecord) => void;
  /** Called when a call settles, however it was sent: a host re-arms its idle alarm from there. */
  onCallSettled?: () => void;
}

/**
 * One run as a door holds it: the live core `Run`, the calls in flight with their
 * AbortControllers, and the event log (a live run rebuilt after its host restarted continues its
 * `seq`, so it keeps growing by one). The only place the door starts a run.
 */
export class RunState {
  private live: Run | undefined;
  private readonly listeners = new Set<Listener>();
  private readonly inflight = new Map<string, AbortController>();
  /** The call id each running resumed call has, by the approval that resumed it. */
  private readonly resumedBy = new Map<string, string>();

  private readonly heartbeatMs: number;
  private readonly maxQueuedBytes: number;
  private readonly maxCalls: number;
  private readonly maxStreams: number;
  private readonly maxPendingApprovals: number;

  constructor(
    private readonly runtime: Runtime,
    private readonly log: RunLog,
    private readonly options: RunStateOptions = {},
  ) {
    this.heartbeatMs = options.heartbeatMs ?? defaultHeartbeatMs;
    this.maxQueuedBytes = options.maxQueuedBytesPerStream ?? defaultLimits.maxQueuedBytesPerStream;
    this.maxCalls = options.maxCallsPerRun ?? defaultLimits.maxCallsPerRun;
    this.maxStreams = options.maxStreamsPerRun ?? defaultLimits.maxStreamsPerRun;
    this.maxPendingApprovals = options.maxPendingApprovalsPerRun ?? defaultLimits.maxPendingApprovalsPerRun;
  }

  /** How many streams are reading the run's events right now (event streams and SSE calls). */
  get readers(): number {
    return this.listeners.size;
  }

  /** Whether a call is running: an idle alarm waits for it. */
  get busy(): boolean {
    return this.inflight.size > 0;
  }

  /**
   * Until when the calls that wait for approval hold off the idle alarm: `windowMs` after the
   * latest of them asked; `undefined` when none waits.
   */
  approvalsWaitUntil(windowMs: number): number | undefined {
    let latest: number | undefined;
    for (const pending of this.log.pendingApprovals.list())
      latest = Math.max(latest ?? 0, pending.requestedAt);
    return latest === undefined ? undefined : latest + windowMs;
  }

  get record(): RunRecord | undefined {
    return this.log.record;
  }

  start(init: RunInit): Reply<RunInfo> {
    if (this.log.record) return refuse(409, 'conflict', `A run named ${init.runId} already exists.`);
    const record: RunRecord = {
      runId: init.runId,
      owner: { ...init.identity },
      phase: init.phase ?? 'act',
      state: init.state ?? {},
      createdAt: Date.now(),
      ended: false,
    };
    if (init.sessionId !== undefined) record.sessionId = init.sessionId;
    this.log.record = record;
    // The live run's first event, run.started, goes into the log from inside startRun.
    this.ensureLive(record);
    return ok(this.info(record));
  }

  info(record: RunRecord): RunInfo {
    const info: RunInfo = {
      runId: record.runId,
      phase: record.phase,
      ended: record.ended,
      lastSeq: this.log.latest,
    };
    if (record.sessionId !== undefined) info.sessionId = record.sessionId;
    return info;
  }

  /** The run's record, if `caller` owns it; another identity learns nothing, not even that it exists. */
  owned(caller: Identity): Reply<RunRecord> {
    const record = this.log.record;
    if (!record || !sameIdentity(record.owner, caller))
      return refuse(404, 'not-found', 'There is no such run for this identity.');
    return ok(record);
  }

  async call(caller: Identity, call: DoorCall): Promise<Reply<ToolResult>> {
    const checked = this.admit(caller, call);
    if (!checked.ok) return checked;
    // Crosses RPC as a value: shaped as JSON would carry it, as every other answer is.
    return ok(jsonSafe(await this.execute(checked.value, call)));
  }

  /**
   * Calls a tool and answers a stream that is sent at once: as `sse`, the call's events (its child
   * calls' too), then a `result` message; as `json`, whitespace heartbeats while the call runs, then
   * its `ToolResult` as JSON (leading whitespace is valid JSON) — or, for a call that settled at
   * once (it waited on no I/O), that JSON text alone, with no stream to pay for. A reader of a stream
   * that hangs up is found by the first write that fails, a heartbeat or two later, and cancels the
   * call. A call that cannot be admitted is refused before any stream exists, so its status is a real 4xx.
   */
  async streamCall(caller: Identity, call: DoorCall, format: CallFormat = 'sse'): Promise<Reply<CallAnswer>> {
    const checked = this.admit(caller, call);
    if (!checked.ok) return checked;
    if (format === 'sse' && this.listeners.size >= this.maxStreams) return this.tooManyStreams();
    return ok((await this.answer(call.toolCallId, format, () => this.execute(checked.value, call))).body);
  }

  /**
   * The run's events after `after` as SSE, then live ones until the run finishes. Reading the
   * backlog and subscribing happen in one synchronous turn: no gap, no duplicate.
   */
  events(caller: Identity, after: number): Reply<ReadableStream<Uint8Array>> {
    const owned = this.owned(caller);
    if (!owned.ok) return owned;
    if (!Number.isSafeInteger(after) || after < 0)
      return refuse(400, 'bad-request', 'The position to resume after must be a whole number, 0 or more.');
    const { latest, oldest } = this.log;
    if (after > latest)
      return refuse(
        400,
        'bad-request',
        `This run has recorded ${latest} events; there is no event ${after}.`,
        {
          after,
          lastSeq: latest,
        },
      );
    if (after + 1 < oldest)
      return refuse(
        410,
        'events-trimmed',
        `Events ${after + 1}–${oldest - 1} are no longer kept (the log keeps the last ${this.log.maxEvents}). ` +
          `Resume from event ${oldest - 1} or later, or fetch the run's state another way.`,
        { after, oldestSeq: oldest, lastSeq: latest },
      );
    const ended = this.log.record?.ended === true;
    if (!ended && this.listeners.size >= this.maxStreams) return this.tooManyStreams();
    // The backlog is encoded as the reader takes it: written in this one turn, a long one would
    // be past the bound before the reader could take any of it.
    const channel = createChannel({
      heartbeatMs: this.heartbeatMs,
      maxQueuedBytes: this.maxQueuedBytes,
      backlog: encodeEach(this.log.after(after)),
    });
    if (ended) {
      channel.close();
      return ok(channel.readable);
    }
    const unsubscribe = this.subscribe((event, message) => {
      channel.write(message);
      if (event.type === 'run.finished') {
        unsubscribe();
        channel.close();
      }
    });
    channel.onGone(unsubscribe);
    return ok(channel.readable);
  }

  /**
   * Decides an approval a call of this run left pending (kept in storage, so after a restart too)
   * and answers like {@link RunState.streamCall}: once core has taken the decision, a stream of the
   * resumed call (its events then its result as `sse`, heartbeats then its `ToolResult` as `json`);
   * a decision core refuses (unknown, decided already, another run's, malformed) is a real 404 or
   * 400 before any stream exists. Approved, the call runs now, in flight like any other:
   * cancellable by its call id or by the approval id, holding off the idle alarm, and cancelled
   * when the decider hangs up.
   */
  async streamResume(
    caller: Identity,
    approvalId: string,
    decision: ApprovalDecision,
    format: CallFormat = 'json',
  ): Promise<Reply<CallAnswer>> {
    const owned = this.owned(caller);
    if (!owned.ok) return owned;
    if (owned.value.ended) return refuse(409, 'conflict', 'The run has ended; its approvals lapsed with it.');
    const { pendingApprovals } = this.log;
    const callId = pendingApprovals.get(approvalId)?.callId;
    if (callId !== undefined && this.inflight.has(callId))
      return refuse(409, 'conflict', `A call with id ${JSON.stringify(callId)} is already running.`);
    const run = this.ensureLive(owned.value);
    if (callId === undefined) return decisionRefused(await run.resume(approvalId, decision));
    if (format === 'sse' && this.listeners.size >= this.maxStreams) return this.tooManyStreams();
    let finished!: Promise<ToolResult>;
    const answering = this.answer(callId, format, () => {
      const controller = new AbortController();
      this.inflight.set(callId, controller);
      this.resumedBy.set(approvalId, callId);
      finished = run.resume(approvalId, decision, { signal: controller.signal }).finally(() => {
        this.inflight.delete(callId);
        this.resumedBy.delete(approvalId);
        this.options.onCallSettled?.();
      });
      return finished;
    });
    // Core takes a decision it accepts out of the store before its first await: an approval still
    // there was refused, nothing ran, and the answer is a real 4xx rather than a stream.
    // (`answer` starts the call before its first await, so this is read right after core's turn.)
    const accepted = pendingApprovals.get(approvalId) === undefined;
    const answer = await answering;
    if (accepted) return ok(answer.body);
    answer.discard();
    return decisionRefused(await finished);
  }

  /**
   * Cancels one call: a running one is aborted; one that waits for approval is settled as aborted
   * and its approval removed, so no later decision can run it. `callId` may also name the approval
   * that resumed a running call.
   */
  cancel(caller: Identity, callId: string): Reply<CancelInfo> {
    const owned = this.owned(caller);
    if (!owned.ok) return owned;
    const controller = this.inflight.get(callId) ?? this.inflight.get(this.resumedBy.get(callId) ?? '');
    if (controller) {
      controller.abort();
      return ok({ callId, cancelled: true });
    }
    if (!owned.value.ended && this.ensureLive(owned.value).cancelPending(callId))
      return ok({ callId, cancelled: true });
    return refuse(404, 'not-found', `No call ${JSON.stringify(callId)} is running or waiting in this run.`);
  }

  /** Ends the run (its in-flight calls are cancelled). Ending an ended run changes nothing. */
  async end(caller: Identity): Promise<Reply<RunInfo>> {
    const owned = this.owned(caller);
    if (!owned.ok) return owned;
    await this.finish();
    return ok(this.info(this.log.record!));
  }

  /** Ends the run without an owner check: for the host's own idle alarm. */
  async finish(): Promise<void> {
    const record = this.log.record;
    if (!record || record.ended) return;
    await this.ensureLive(record).end();
  }

  /** Lets go of the run, whose storage the host deleted: from now on it is unknown. */
  forget(): void {
    this.live = undefined;
    this.listeners.clear();
    this.log.forget();
  }

  private admit(caller: Identity, call: DoorCall): Reply<RunRecord> {
    const owned = this.owned(caller);
    if (!owned.ok) return owned;
    if (owned.value.ended) return refuse(409, 'conflict', 'The run has ended; start a new run.');
    if (!this.runtime.tools.has(call.tool)) {
      const { message, details } = unknownToolError(call.tool, this.runtime.tools.keys());
      return refuse(404, 'unknown-tool', message, details);
    }
    if (this.inflight.has(call.toolCallId))
      return refuse(409, 'conflict', `A call with id ${JSON.stringify(call.toolCallId)} is already running.`);
    if (this.inflight.size >= this.maxCalls)
      return limitExceeded(
        'calls running at once in this run',
        this.maxCalls,
        'maxCallsPerRun',
        'Wait for a call to finish or cancel one',
      );
    if (mayAskApproval(this.runtime.tools.get(call.tool)) && this.pendingCount() >= this.maxPendingApprovals)
      return limitExceeded(
        'calls waiting for approval in this run',
        this.maxPendingApprovals,
        'maxPendingApprovalsPerRun',
        'Decide or cancel a pending approval (POST /approvals/:id, or cancel its call)',
        5,
      );
    return owned;
  }

  /**
   * The answer of one call, the one implementation behind {@link RunState.streamCall} and
   * {@link RunState.streamResume} (see {@link answerCall}): its events are this run's, and a
   * reader that hangs up cancels the call in flight.
   */
  private answer(
    callId: string,
    format: CallFormat,
    start: () => Promise<ToolResult>,
  ): Promise<CallAnswerOf> {
    return answerCall({
      callId,
      format,
      start,
      heartbeatMs: this.heartbeatMs,
      maxQueuedBytes: this.maxQueuedBytes,
      subscribe: (listener) => this.subscribe(listener),
      cancel: () => this.inflight.get(callId)?.abort(),
    });
  }

  /**
   * The run's pending approvals, counted in the one store core decides them from (the `a:` keys):
   * a listing, read only when a tool that may ask is called, of at most about the limit's entries.
   */
  private pendingCount(): number {
    let count = 0;
    for (const _ of this.log.pendingApprovals.list()) count++;
    return count;
  }

  private tooManyStreams(): Reply<never> {
    return limitExceeded(
      'event streams open at once on this run (GET /runs/:id/events and SSE calls)',
      this.maxStreams,
      'maxStreamsPerRun',
      'Close a stream (a reader that hung up frees its slot within seconds)',
    );
  }

  private async execute(record: RunRecord, call: DoorCall): Promise<ToolResult> {
    const controller = new AbortController();
    this.inflight.set(call.toolCallId, controller);
    try {
      const run = this.ensureLive(record);
      const { tool, args, toolCallId } = call;
      return await run.call({ tool, args, toolCallId, signal: controller.signal });
    } finally {
      this.inflight.delete(call.toolCallId);
      this.options.onCallSettled?.();
    }
  }

  /** The live core run, started again from the record if the host lost it (a restart, an eviction). */
  private ensureLive(record: RunRecord): Run {
    if (this.live) return this.live;
    const { runId, owner, sessionId, phase, state } = record;
    const { pendingApprovals, latest } = this.log;
    const run = this.runtime.startRun({
      runId,
      identity: owner,
      sessionId,
      phase,
      state,
      pendingApprovals,
      // A run rebuilt after a restart continues the log it left: no second run.started.
      ...(latest > 0 ? { continuesAfterSeq: latest } : {}),
      onEvent: (event) => this.publish(event),
    });
    this.live = run;
    return run;
  }

  private publish(event: ToolEvent): void {
    this.log.append(event);
    if (event.type === 'run.finished') {
      const record = { ...this.log.record!, ended: true, endedAt: event.ts };
      this.log.record = record;
      this.options.onFinished?.(record);
    }
    if (this.listeners.size === 0) return;
    const message = eventMessage(event);
    for (const listener of this.listeners) {
      try {
        listener(event, message);
      } catch {
        this.listeners.delete(listener);
      }
    }
  }

  private subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
}

/** Whether a call of `tool` may leave an approval pending: it asks (always, or by a predicate), or sends. */
function mayAskApproval(tool: { needsApproval?: unknown; effect?: string } | undefined): boolean {
  return Boolean(tool?.needsApproval) || tool?.effect === 'send';
}

/**
 * The refusal of a decision core would not take, with core's reason: a 404 when there is nothing
 * to decide (unknown, decided already, its call cancelled, another run's), a 400 for a malformed
 * decision.
 */
function decisionRefused(result: ToolResult): Reply<never> {
  const error = result.ok ? undefined : result.error;
  const reason = error ? reasonOf(error) : 'unknown-approval';
  const message = error?.message ?? 'There is no such approval to decide.';
  if (reason === 'invalid-decision') return refuse(400, 'bad-request', message, { reason });
  return refuse(404, 'not-found', message, { reason });
}
const reasonOf = (error: { details?: Record<string, unknown> }) => String(error.details?.reason);

function* encodeEach(events: ToolEvent[]): Iterator<Uint8Array> {
  for (const event of events) yield eventMessage(event);
}
