import {
  type ApprovalDecision,
  type AskAnswer,
  type CallHandle,
  type CallRecord,
  type CallStore,
  callHandleOf,
  type Decided,
  type Identity,
  mayAskApproval,
  type OpenApproval,
  type OpenAsk,
  type Run,
  type Runtime,
  type ToolEvent,
  type ToolResult,
  unknownToolError,
} from '@toolctx/core';
import { answerCall, type CallAnswer, type CallAnswerOf, type CallFormat } from '../door/call-answer.js';
import { createChannel, defaultHeartbeatMs } from '../door/channel.js';
import { ok, type Reply, refuse } from '../door/door-error.js';
import { sameIdentity } from '../door/same-identity.js';
import { eventMessage } from '../door/wire-format.js';
import { defaultLimits, limitExceeded, type RunLimits } from './limits.js';
import { isSettled, type RunLog, type RunRecord } from './run-log.js';
import type { AskTaken, CancelInfo, DoorCall, RunInfo, RunInit } from './types.js';

/** A reader of the run's events; `message` is the event as SSE bytes, encoded once for all readers. */
type Listener = (event: ToolEvent, message: Uint8Array) => void;

/** Options of a {@link RunState}: its limits, its streams' heartbeat, and who hears of its end. */
export interface RunStateOptions extends RunLimits {
  /** How often an open stream writes its heartbeat, which also finds readers that left. Default 500 ms. */
  heartbeatMs?: number;
  /** Called once, when the run has finished however it ended (a DELETE, the idle alarm). */
  onFinished?: (record: RunRecord) => void;
  /** Called when a call starts running, however it was sent: a host keeps itself alive from there. */
  onCallStarted?: () => void;
  /** Called when a call settles, however it was sent: a host re-arms its idle alarm from there. */
  onCallSettled?: () => void;
}

/**
 * One run as a door reaches it: what `RunDirectory.get(runId)` answers, whether the run lives in
 * this isolate or in a Durable Object (`RunHostObject`, over RPC). Every verb takes the caller's
 * identity first: another identity gets the same 404 as a run that does not exist. A verb is added
 * in two files: here (this interface and the run's method) and in the host that forwards it.
 *
 * @experimental A run directory of your own may need to add verbs as the doors gain them.
 *
 * @example
 * ```ts
 * import type { DoorRun, RunDirectory } from '@toolctx/edge';
 * declare const runs: RunDirectory;
 * const run: DoorRun = runs.get('run_1');
 * const handle = await run.callStatus({ tenant: 'acme', principal: 'ana' }, 'call_1');
 * if (handle.ok) console.log(handle.value.status);
 * ```
 */
export interface DoorRun {
  /**
   * Calls a tool and answers a stream sent at once: as `sse` (the default) the call's events, then
   * an `event: result` message; as `json`, whitespace heartbeats, then the `ToolResult` as JSON, or
   * that JSON text alone when the call settled at once. A reader that hangs up cancels the call.
   */
  streamCall(caller: Identity, call: DoorCall, format?: CallFormat): Promise<Reply<CallAnswer>>;
  /** Starts a call and answers its handle at once (`Prefer: respond-async`); the call goes on whoever listens. */
  startCall(caller: Identity, call: DoorCall): Promise<Reply<CallHandle>>;
  /** A call's handle: its status and, once settled, its result. */
  callStatus(caller: Identity, callId: string): Promise<Reply<CallHandle>>;
  /**
   * The call's handle once it is no longer as `seen` says (another status, an update since, other
   * open asks), or as it is after `withinMs` (at most a minute): one request where polling would
   * make many, and the news as soon as it happens. A call that is over, or of a run that ended, is
   * answered at once, as is a 65th caller waiting on the same run (so ask again). Refused as
   * `callStatus` refuses.
   */
  nextCallStatus(
    caller: Identity,
    callId: string,
    seen: CallHandle,
    withinMs: number,
  ): Promise<Reply<CallHandle>>;
  /** The handles of the calls not settled yet. */
  openCalls(caller: Identity): Promise<Reply<{ calls: CallHandle[] }>>;
  /** What the run is (`GET /runs/:runId`): its id, phase, whether it ended, its last event's `seq`. */
  info(caller: Identity): Promise<Reply<RunInfo>>;
  /** The run's events after `after` as SSE bytes, then live ones until the run finishes. */
  events(caller: Identity, after: number): Promise<Reply<ReadableStream<Uint8Array>>>;
  /**
   * Decides an approval a call of the run left pending and answers as `streamCall` does, once the
   * decision is taken (as `json` by default); nothing to decide is a 404, a malformed decision a 400.
   */
  streamResume(
    caller: Identity,
    approvalId: string,
    decision: ApprovalDecision,
    format?: CallFormat,
  ): Promise<Reply<CallAnswer>>;
  /**
   * Decides an approval a call of the run left pending and answers once the decision is taken,
   * the resumed call going on whoever listens (as `startCall` does); nothing to decide is a 404, a
   * malformed decision a 400.
   */
  decide(
    caller: Identity,
    approvalId: string,
    decision: ApprovalDecision,
  ): Promise<Reply<{ toolCallId: string }>>;
  /**
   * What a call of the run waiting for approval asks to do: its tool and the arguments it would run
   * with, for the person deciding; no approval of this id pending in the run is a 404.
   */
  pendingApproval(caller: Identity, approvalId: string): Promise<Reply<OpenApproval>>;
  /**
   * The approvals the run's calls wait for, the oldest first, each with the arguments its call would
   * run with (core's `run.pendingApprovals()`): for the run's owner, as every verb.
   */
  pendingApprovals(caller: Identity): Promise<Reply<{ approvals: OpenApproval[] }>>;
  /** Cancels one call (running, waiting for approval, or resumed by the approval of this id). */
  cancel(caller: Identity, callId: string): Promise<Reply<CancelInfo>>;
  /** The asks of the run's calls waiting for their answer, the oldest first. */
  asks(caller: Identity): Promise<Reply<{ asks: OpenAsk[] }>>;
  /**
   * Answers an open ask of the run (core checks it and takes it once): no open ask by that id is a
   * 404, an answer that does not fit the ask a 400 naming each problem (the ask stays open).
   */
  answerAsk(caller: Identity, askId: string, answer: unknown): Promise<Reply<AskTaken>>;
  /** Ends the run, cancelling its calls in flight; ending it again is a no-op. */
  end(caller: Identity): Promise<Reply<RunInfo>>;
}

/**
 * One run as a door holds it: the live core `Run` (the one owner of its calls: their handles,
 * cancels and approval decisions) and the event log (a live run rebuilt after its host restarted
 * continues its `seq`, so it keeps growing by one). The only place the door starts a run.
 */
export class RunState implements DoorRun {
  private live: Run | undefined;
  private readonly listeners = new Set<Listener>();
  /**
   * Who waits for news of a call (`nextCallStatus`), by call id: each looks again as the call's
   * record is filed (every change of its handle is). No stream, no stream slot.
   */
  private readonly waiters = new Map<string, Set<Waiter>>();
  private waiterCount = 0;

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

  /** The calls running now, a call waiting for its user's answer included (not one waiting for approval); none for a run that has ended. */
  working(): CallHandle[] {
    // A call waiting for its user's answer (an ask) runs in this isolate too, unlike one waiting
    // for approval, which holds nothing but its record.
    return this.openHandles().filter((handle) => handle.status === 'working' || handle.ask !== undefined);
  }

  /**
   * Until when the calls that wait for approval hold off the idle alarm: `windowMs` after the
   * latest of them asked; `undefined` when none waits.
   */
  approvalsWaitUntil(windowMs: number): number | undefined {
    let latest: number | undefined;
    for (const handle of this.openHandles())
      if (handle.status === 'input_required') latest = Math.max(latest ?? 0, handle.updatedAt);
    return latest === undefined ? undefined : latest + windowMs;
  }

  /**
   * Takes the run up again after its host restarted (a wake, an alarm): core settles the calls
   * the restart cut off, before any request is answered. Nothing for a run that never started or
   * has ended.
   */
  wake(): void {
    const record = this.log.record;
    if (record && !record.ended) this.ensureLive(record);
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
      createdAt: init.createdAt ?? Date.now(),
      ended: false,
    };
    if (init.sessionId !== undefined) record.sessionId = init.sessionId;
    if (init.endsWithCall !== undefined) record.endsWithCall = init.endsWithCall;
    this.log.record = record;
    // The live run's first event, run.started, goes into the log from inside startRun.
    this.ensureLive(record);
    return ok(this.infoOf(record));
  }

  private infoOf(record: RunRecord): RunInfo {
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

  /**
   * Calls a tool and answers a stream that is sent at once: as `sse`, the call's events (its child
   * calls' too), then a `result` message; as `json`, whitespace heartbeats while the call runs, then
   * its `ToolResult` as JSON (leading whitespace is valid JSON) — or, for a call that settled at
   * once (it waited on no I/O), that JSON text alone, with no stream to pay for. A reader of a stream
   * that hangs up is found by the first write that fails, a heartbeat or two later, and cancels the
   * call. A call its checks refuse is refused before any stream exists, so its status is a real 4xx.
   */
  async streamCall(caller: Identity, call: DoorCall, format: CallFormat = 'sse'): Promise<Reply<CallAnswer>> {
    const checked = this.checkCall(caller, call);
    if (!checked.ok) return checked;
    if (format === 'sse' && this.listeners.size >= this.maxStreams) return this.tooManyStreams();
    return ok((await this.answer(call.toolCallId, format, () => this.execute(checked.value, call))).body);
  }

  /**
   * Starts a call and answers its handle at once (`Prefer: respond-async`): the call goes on in
   * the run whoever listens, read back with {@link RunState.callStatus} or the run's events.
   * Refused as {@link RunState.streamCall} refuses.
   */
  async startCall(caller: Identity, call: DoorCall): Promise<Reply<CallHandle>> {
    const checked = this.checkCall(caller, call);
    if (!checked.ok) return checked;
    void this.execute(checked.value, call);
    return ok(this.live!.callStatus(call.toolCallId)!);
  }

  /** A call's handle: its status and, once settled, its result (kept for the run's retention window). */
  async callStatus(caller: Identity, callId: string): Promise<Reply<CallHandle>> {
    return this.statusNow(caller, callId);
  }

  /** The call's handle once it changed since `seen` (see {@link DoorRun.nextCallStatus}). */
  async nextCallStatus(
    caller: Identity,
    callId: string,
    seen: CallHandle,
    withinMs: number,
  ): Promise<Reply<CallHandle>> {
    // Read and, if need be, wait from the same turn: no news can slip in between.
    const now = this.statusNow(caller, callId);
    if (!now.ok || changedSince(now.value, seen) || isSettled(now.value) || this.log.record?.ended)
      return now;
    // Past this many, a waiter is answered at once, and its caller asks again.
    if (this.waiterCount >= maxWaiters) return now;
    const waiting = this.waiters.get(callId) ?? new Set<Waiter>();
    return new Promise<Reply<CallHandle>>((resolve) => {
      const waiter: Waiter = {
        done: () => {
          clearTimeout(deadline);
          waiting.delete(waiter);
          if (waiting.size === 0) this.waiters.delete(callId);
          this.waiterCount--;
          resolve(this.statusNow(caller, callId));
        },
        look: () => {
          const handle = this.statusNow(caller, callId);
          if (!handle.ok || changedSince(handle.value, seen)) waiter.done();
        },
      };
      const deadline = setTimeout(waiter.done, Math.min(Math.max(withinMs, 0), maxWaitMs) || 0);
      waiting.add(waiter);
      this.waiters.set(callId, waiting);
      this.waiterCount++;
    });
  }

  /** What `callStatus` answers, read now. */
  private statusNow(caller: Identity, callId: string): Reply<CallHandle> {
    const owned = this.owned(caller);
    if (!owned.ok) return owned;
    const handle = owned.value.ended
      ? callHandleOfRecord(this.log.calls.get(callId))
      : this.ensureLive(owned.value).callStatus(callId);
    if (!handle) return refuse(404, 'not-found', `This run has no call ${JSON.stringify(callId)}.`);
    return ok(handle);
  }

  /** Wakes who waits for news of the call whose record was just filed. */
  private filed(callId: string): void {
    const waiting = this.waiters.get(callId);
    if (waiting) for (const waiter of [...waiting]) waiter.look();
  }

  /** What the run is: its id, phase, whether it ended, its last event's `seq`. */
  async info(caller: Identity): Promise<Reply<RunInfo>> {
    const owned = this.owned(caller);
    return owned.ok ? ok(this.infoOf(owned.value)) : owned;
  }

  /** The handles of the run's calls that are not settled: running, or waiting for a person. */
  async openCalls(caller: Identity): Promise<Reply<{ calls: CallHandle[] }>> {
    const owned = this.owned(caller);
    if (!owned.ok) return owned;
    return ok({ calls: this.openHandles() });
  }

  /**
   * The run's events after `after` as SSE, then live ones until the run finishes. Reading the
   * backlog and subscribing happen in one synchronous turn: no gap, no duplicate.
   */
  async events(caller: Identity, after: number): Promise<Reply<ReadableStream<Uint8Array>>> {
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
    if (format === 'sse' && this.listeners.size >= this.maxStreams) return this.tooManyStreams();
    const run = this.ensureLive(owned.value);
    // The call the approval holds, by its handle: an SSE reader is subscribed to it before core
    // takes the decision, so it misses none of the call's events.
    const waiting = run.openCalls().find((handle) => handle.approvalId === approvalId);
    let decided: Decided | undefined;
    const answer = await this.answer(waiting?.toolCallId ?? approvalId, format, () => {
      decided = run.decide(approvalId, decision);
      if (!decided.taken) return Promise.resolve<ToolResult>({ ok: false, error: decided.error });
      this.options.onCallStarted?.();
      return decided.result.finally(() => this.options.onCallSettled?.());
    });
    if (decided?.taken) return ok(answer.body);
    answer.discard();
    if (!decided) return refuse(404, 'not-found', 'There is no such approval to decide.');
    // Core's reason decides the status: nothing to decide is a 404, a malformed decision a 400.
    const { reason, error } = decided;
    if (reason === 'invalid-decision') return refuse(400, 'bad-request', error.message, { reason });
    return refuse(404, 'not-found', error.message, { reason });
  }

  /**
   * Cancels one call: a running one is aborted; one that waits for approval is settled as aborted
   * and its approval removed, so no later decision can run it. `callId` may also name the approval
   * that resumed a running call.
   */
  async cancel(caller: Identity, callId: string): Promise<Reply<CancelInfo>> {
    const owned = this.owned(caller);
    if (!owned.ok) return owned;
    if (!owned.value.ended && this.ensureLive(owned.value).cancel(callId))
      return ok({ callId, cancelled: true });
    return refuse(404, 'not-found', `No call ${JSON.stringify(callId)} is running or waiting in this run.`);
  }

  /** The asks of the run's calls waiting for their answer, the oldest first. */
  async asks(caller: Identity): Promise<Reply<{ asks: OpenAsk[] }>> {
    const owned = this.owned(caller);
    if (!owned.ok) return owned;
    return ok({ asks: owned.value.ended ? [] : this.ensureLive(owned.value).asks() });
  }

  /** What a pending approval asks to do (see {@link DoorRun.pendingApproval}). */
  async pendingApproval(caller: Identity, approvalId: string): Promise<Reply<OpenApproval>> {
    const listed = await this.pendingApprovals(caller);
    if (!listed.ok) return listed;
    const pending = listed.value.approvals.find((approval) => approval.approvalId === approvalId);
    if (!pending)
      return refuse(404, 'not-found', `No approval ${JSON.stringify(approvalId)} is pending in this run.`);
    return ok(pending);
  }

  /** The approvals the run's calls wait for (see {@link DoorRun.pendingApprovals}). */
  async pendingApprovals(caller: Identity): Promise<Reply<{ approvals: OpenApproval[] }>> {
    const owned = this.owned(caller);
    if (!owned.ok) return owned;
    return ok({ approvals: owned.value.ended ? [] : this.ensureLive(owned.value).pendingApprovals() });
  }

  /** Decides an approval and lets the resumed call run on (see {@link DoorRun.decide}). */
  async decide(
    caller: Identity,
    approvalId: string,
    decision: ApprovalDecision,
  ): Promise<Reply<{ toolCallId: string }>> {
    const owned = this.owned(caller);
    if (!owned.ok) return owned;
    if (owned.value.ended) return refuse(409, 'conflict', 'The run has ended; its approvals lapsed with it.');
    const decided = this.ensureLive(owned.value).decide(approvalId, decision);
    if (!decided.taken) {
      const { reason, error } = decided;
      return refuse(reason === 'invalid-decision' ? 400 : 404, 'approval-invalid', error.message, { reason });
    }
    this.options.onCallStarted?.();
    void decided.result.finally(() => this.options.onCallSettled?.());
    return ok({ toolCallId: decided.toolCallId });
  }

  /**
   * Answers an open ask through core, which checks it against the ask and takes it once: a
   * second answer, or one to another run's ask, finds none open (404); values that do not fit
   * are a 400 naming each problem, and the ask stays open for a corrected answer.
   */
  async answerAsk(caller: Identity, askId: string, answer: unknown): Promise<Reply<AskTaken>> {
    const owned = this.owned(caller);
    if (!owned.ok) return owned;
    if (owned.value.ended) return refuse(404, 'not-found', 'The run has ended; its asks lapsed with it.');
    const answered = await this.ensureLive(owned.value).answer(askId, answer as AskAnswer);
    if (answered.taken) return ok({ askId, toolCallId: answered.toolCallId, taken: true });
    const { reason, error } = answered;
    if (reason === 'invalid') return refuse(400, 'invalid-argument', error.message, error.details);
    return refuse(404, 'not-found', error.message, { reason });
  }

  /** Ends the run (its in-flight calls are cancelled). Ending an ended run changes nothing. */
  async end(caller: Identity): Promise<Reply<RunInfo>> {
    const owned = this.owned(caller);
    if (!owned.ok) return owned;
    await this.finish();
    return ok(this.infoOf(this.log.record!));
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
    // Nothing more will change here: who waits hears so now rather than at their deadline.
    for (const waiting of [...this.waiters.values()]) for (const waiter of [...waiting]) waiter.done();
  }

  private checkCall(caller: Identity, call: DoorCall): Reply<RunRecord> {
    const owned = this.owned(caller);
    if (!owned.ok) return owned;
    if (owned.value.ended) return refuse(409, 'conflict', 'The run has ended; start a new run.');
    const tool = this.runtime.tools.get(call.tool);
    if (!tool) {
      const { message, details } = unknownToolError(call.tool, this.runtime.tools.keys());
      return refuse(404, 'unknown-tool', message, details);
    }
    const run = this.ensureLive(owned.value);
    // A call's id names its handle: a twin of a request (a retry after a lost answer) finds it.
    // An id the door made is new, and looked up in no storage.
    if (call.newId) this.log.newCall(call.toolCallId);
    else if (run.callStatus(call.toolCallId))
      return refuse(
        409,
        'conflict',
        `This run already has a call with id ${JSON.stringify(call.toolCallId)}: read it at GET /runs/${owned.value.runId}/calls/${call.toolCallId}, or give a new call its own id.`,
        { toolCallId: call.toolCallId },
      );
    const open = run.openCalls();
    if (open.filter((handle) => handle.status === 'working' && !handle.parentId).length >= this.maxCalls)
      return limitExceeded(
        'calls running at once in this run',
        this.maxCalls,
        'maxCallsPerRun',
        'Wait for a call to finish or cancel one',
      );
    const waiting = open.filter((handle) => handle.status === 'input_required').length;
    if (mayAskApproval(tool) && waiting >= this.maxPendingApprovals)
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
   * reader that hangs up cancels the call through core, which owns it.
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
      cancel: () => void this.live?.cancel(callId, 'its caller hung up'),
    });
  }

  private openHandles(): CallHandle[] {
    const record = this.log.record;
    return record && !record.ended ? this.ensureLive(record).openCalls() : [];
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
    this.options.onCallStarted?.();
    try {
      const { tool, args, toolCallId } = call;
      return await this.ensureLive(record).call({ tool, args, toolCallId });
    } finally {
      this.options.onCallSettled?.();
    }
  }

  /**
   * The live core run, started again from the record if the host lost it (a restart, an
   * eviction): on its stores, so its approvals can be decided and the calls the restart cut off
   * are settled as it starts.
   */
  private ensureLive(record: RunRecord): Run {
    if (this.live) return this.live;
    const { runId, owner, sessionId, phase, state } = record;
    const { pendingApprovals, calls, latest } = this.log;
    // Every change of a call's handle is its record filed: who waits for news of it looks then.
    const filing: CallStore = {
      get: (id) => calls.get(id),
      open: () => calls.open(),
      put: (record) => {
        calls.put(record);
        if (this.waiterCount > 0) this.filed(record.toolCallId);
      },
    };
    const run = this.runtime.startRun({
      runId,
      identity: owner,
      sessionId,
      phase,
      state,
      pendingApprovals,
      calls: filing,
      // A run rebuilt after a restart continues the log it left: no second run.started.
      ...(latest > 0 ? { continuesAfterSeq: latest } : {}),
      onEvent: (event) => this.publish(event),
    });
    this.live = run;
    return run;
  }

  private publish(event: ToolEvent): void {
    this.log.append(event);
    // A run of one call (an MCP task) ends once that call settled: its record is filed by then.
    const ending = this.log.record?.endsWithCall;
    if (ending === event.callId && (event.type === 'tool.finished' || event.type === 'tool.failed')) {
      setTimeout(() => void this.finish(), 0);
    }
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

/** The longest `nextCallStatus` waits, in ms: a caller that wants longer asks again. */
const maxWaitMs = 60_000;

/** One `nextCallStatus` waiting: `look` answers it if its call changed, `done` answers it now. */
interface Waiter {
  look(): void;
  done(): void;
}

/** How many `nextCallStatus` calls may wait on one run at once. */
const maxWaiters = 64;

/** Whether a call's handle says something `seen` did not: its status, an update, its open asks. */
function changedSince(handle: CallHandle, seen: CallHandle): boolean {
  return (
    handle.status !== seen.status ||
    handle.updatedAt !== seen.updatedAt ||
    handle.approvalId !== seen.approvalId ||
    (handle.asks?.length ?? 0) !== (seen.asks?.length ?? 0)
  );
}

/** A stored record as its handle: without what is kept only for running it again. */

function callHandleOfRecord(record: CallRecord | undefined): CallHandle | undefined {
  return record && callHandleOf(record);
}

function* encodeEach(events: ToolEvent[]): Iterator<Uint8Array> {
  for (const event of events) yield eventMessage(event);
}
