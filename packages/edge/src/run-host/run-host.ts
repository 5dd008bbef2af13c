import { DurableObject } from 'cloudflare:workers';
import type { ApprovalDecision, CallHandle, Identity, OpenApproval, OpenAsk, Runtime } from '@toolctx/core';
import type { CallAnswer, CallFormat } from '../door/call-answer.js';
import type { Reply } from '../door/door-error.js';
import { sharedRuntime } from '../door/shared-runtime.js';
import { durableObjectDoor } from './doors.js';
import { releaseOnFinish } from './identity-slots.js';
import type { IdentityStateObject } from './identity-state.js';
import type { RunLimits } from './limits.js';
import { RunLog, type RunRecord } from './run-log.js';
import { type DoorRun, RunState } from './run-state.js';
import type { AskTaken, CancelInfo, DoorCall, RunInfo, RunInit } from './types.js';

/**
 * Options of {@link createRunHost}.
 *
 * @example
 * ```ts
 * import type { Runtime } from '@toolctx/core';
 * import type { ExampleWorkerEnv } from '@toolctx/edge';
 * import { createRunHost, type RunHostOptions } from '@toolctx/edge/durable-objects';
 * declare const runtime: Runtime;
 * const options: RunHostOptions = { idleMs: 10 * 60_000, retentionMs: 60 * 60_000, maxEvents: 500 };
 * export class RunHost extends createRunHost<ExampleWorkerEnv>(() => runtime, options) {}
 * ```
 */
export interface RunHostOptions extends RunLimits {
  /** Events kept in storage for resuming; older ones are trimmed (resuming before them is a 410). Default 1000. */
  maxEvents?: number;
  /**
   * After this long without a request or a running call, the idle alarm ends the run: at most a
   * tenth later, since a busy run re-arms its alarm only once per tenth. Default 15 minutes.
   */
  idleMs?: number;
  /** How often an open stream writes its heartbeat, in ms; a failed write finds a reader that hung up. Default 500 ms. */
  heartbeatMs?: number;
  /**
   * How long an ended run's storage (record, event log) is kept, in ms from its end, however it
   * ended (`DELETE /runs/:id` or the idle alarm); then the object deletes it, alarm included, and
   * the run answers 404 like one that never existed. Default a day.
   */
  retentionMs?: number;
  /**
   * How long a call waiting for a person's approval keeps its run from idling out, in ms from when
   * it asked. After that the idle alarm may end the run, and the waiting calls lapse with it
   * (`tool.failed`, `aborted`). Default a day.
   */
  approvalWindowMs?: number;
  /**
   * Where this run's identity holds its slot and lists its runs (the namespace given to
   * `durableObjectRuns`): the slot is freed when the run finishes, and the run stays listed
   * (`GET /runs`) until this host deletes it, `retentionMs` after its end.
   */
  identityState?: DurableObjectNamespace<IdentityStateObject>;
  /**
   * While a call runs, the object keeps itself alive with its alarm, set this often (ms), so the
   * call does not lose its isolate merely because no request is open. Default 30 s.
   */
  keepAliveMs?: number;
  /**
   * The longest a call keeps its run's object alive, in ms from its start, when its tool sets no
   * `timeoutMs` (a tool's own limit, a minute more, bounds it otherwise). Past it the call still
   * runs while the object lives, but no alarm holds the object for it. Default an hour.
   */
  maxCallMs?: number;
}

const day = 24 * 60 * 60_000;

/**
 * The Durable Object that holds one run: the live core run, its in-flight calls and their
 * AbortControllers, and in the object's storage the event log and the calls that wait for
 * approval (so a restart loses neither). Its one alarm ends an idle run, then deletes the ended
 * run's storage after the retention window. Make the class with
 * {@link createRunHost}; the HTTP door reaches it through {@link index!durableObjectRuns}.
 *
 * @example
 * ```ts
 * import type { ExampleWorkerEnv } from '@toolctx/edge';
 * import type { RunHostObject } from '@toolctx/edge/durable-objects';
 * declare const env: ExampleWorkerEnv;
 * const host = env.RUNS.get(env.RUNS.idFromName('run_1')) as DurableObjectStub<RunHostObject<ExampleWorkerEnv>>;
 * const reply = await host.cancel({ tenant: 'acme', principal: 'ana' }, 'call_1');
 * ```
 */
export class RunHostObject<E = unknown> extends DurableObject<E> implements DoorRun {
  private readonly run: RunState;
  private readonly runtime: Runtime;
  private readonly idleMs: number;
  private readonly retentionMs: number;
  private readonly approvalWindowMs: number;
  /** Gives the run's slot back to its identity's counter, when runs per identity are limited. */
  private readonly releaseSlot: ((record: RunRecord) => void) | undefined;
  private readonly keepAliveMs: number;
  private readonly maxCallMs: number;
  /** When the alarm is set for, as far as this object knows: unknown after a restart. */
  private alarmAt: number | undefined;

  constructor(ctx: DurableObjectState, env: E, runtime: Runtime, options: RunHostOptions = {}) {
    super(ctx, env);
    this.idleMs = positiveMs('idleMs', options.idleMs ?? 15 * 60_000);
    this.retentionMs = positiveMs('retentionMs', options.retentionMs ?? day);
    this.approvalWindowMs = positiveMs('approvalWindowMs', options.approvalWindowMs ?? day);
    this.keepAliveMs = positiveMs('keepAliveMs', options.keepAliveMs ?? 30_000);
    this.maxCallMs = positiveMs('maxCallMs', options.maxCallMs ?? 60 * 60_000);
    const log = new RunLog(ctx.storage.kv, options.maxEvents ?? 1000);
    this.runtime = runtime.withDoor(durableObjectDoor);
    const onFinished = options.identityState && releaseOnFinish(options.identityState, this.retentionMs);
    this.releaseSlot = onFinished;
    // A streamed call or resumed approval (JSON or SSE) settles after its reply was sent: re-arm the alarm from there.
    const onCallSettled = () => void this.touch().catch(() => {});
    const onCallStarted = () => void this.keepAlive().catch(() => {});
    this.run = new RunState(this.runtime, log, {
      ...options,
      onCallSettled,
      onCallStarted,
      ...(onFinished ? { onFinished } : {}),
    });
    // A wake after a restart (an eviction, a deploy, a crash): the calls it cut off are settled
    // before any request or alarm is answered, and the alarm set for those still running again.
    void ctx.blockConcurrencyWhile(async () => {
      this.run.wake();
      if (this.run.working().length > 0) await this.keepAlive();
    });
  }

  /** Starts this object's run (RPC from {@link index!RunDirectory.start}) and arms its idle alarm. */
  async start(init: RunInit): Promise<Reply<RunInfo>> {
    const reply = this.run.start(init);
    if (reply.ok) await this.touch();
    return reply;
  }

  /** Calls a tool and streams its answer, SSE or JSON after heartbeats (see {@link index!DoorRun.streamCall}). */
  async streamCall(caller: Identity, call: DoorCall, format?: CallFormat): Promise<Reply<CallAnswer>> {
    await this.touchFor(caller);
    return this.run.streamCall(caller, call, format);
  }

  /** Starts a call and answers its handle at once (see {@link index!DoorRun.startCall}). */
  async startCall(caller: Identity, call: DoorCall): Promise<Reply<CallHandle>> {
    await this.touchFor(caller);
    return this.run.startCall(caller, call);
  }

  /** A call's handle (see {@link index!DoorRun.callStatus}). */
  async callStatus(caller: Identity, callId: string): Promise<Reply<CallHandle>> {
    return this.run.callStatus(caller, callId);
  }

  /** The call's handle once it changed (see {@link index!DoorRun.nextCallStatus}). */
  async nextCallStatus(
    caller: Identity,
    callId: string,
    seen: CallHandle,
    withinMs: number,
  ): Promise<Reply<CallHandle>> {
    return this.run.nextCallStatus(caller, callId, seen, withinMs);
  }

  /** What the run is (see {@link index!DoorRun.info}). */
  async info(caller: Identity): Promise<Reply<RunInfo>> {
    return this.run.info(caller);
  }

  /** The run's open calls (see {@link index!DoorRun.openCalls}). */
  async openCalls(caller: Identity): Promise<Reply<{ calls: CallHandle[] }>> {
    return this.run.openCalls(caller);
  }

  /** The run's open asks (see {@link index!DoorRun.asks}). */
  async asks(caller: Identity): Promise<Reply<{ asks: OpenAsk[] }>> {
    return this.run.asks(caller);
  }

  /** Answers an open ask (see {@link index!DoorRun.answerAsk}). */
  async answerAsk(caller: Identity, askId: string, answer: unknown): Promise<Reply<AskTaken>> {
    return this.run.answerAsk(caller, askId, answer);
  }

  /** This run's events after `after` as SSE bytes, then live ones (see {@link index!DoorRun.events}). */
  async events(caller: Identity, after: number): Promise<Reply<ReadableStream<Uint8Array>>> {
    return this.run.events(caller, after);
  }

  /**
   * Decides an approval a call of this run left pending and streams the resumed call's answer, as
   * {@link RunHostObject.streamCall} does (see {@link index!DoorRun.streamResume}).
   */
  async streamResume(
    caller: Identity,
    approvalId: string,
    decision: ApprovalDecision,
    format?: CallFormat,
  ): Promise<Reply<CallAnswer>> {
    await this.touchFor(caller);
    return this.run.streamResume(caller, approvalId, decision, format);
  }

  /** What a pending approval asks to do (see {@link index!DoorRun.pendingApproval}). */
  async pendingApproval(caller: Identity, approvalId: string): Promise<Reply<OpenApproval>> {
    return this.run.pendingApproval(caller, approvalId);
  }

  /** The approvals the run's calls wait for (see {@link index!DoorRun.pendingApprovals}). */
  async pendingApprovals(caller: Identity): Promise<Reply<{ approvals: OpenApproval[] }>> {
    return this.run.pendingApprovals(caller);
  }

  /** Decides an approval; the resumed call runs on (see {@link index!DoorRun.decide}). */
  async decide(
    caller: Identity,
    approvalId: string,
    decision: ApprovalDecision,
  ): Promise<Reply<{ toolCallId: string }>> {
    await this.touchFor(caller);
    return this.run.decide(caller, approvalId, decision);
  }

  /** Aborts one running call of this run, or one that waits for approval (see {@link index!DoorRun.cancel}). */
  async cancel(caller: Identity, callId: string): Promise<Reply<CancelInfo>> {
    return this.run.cancel(caller, callId);
  }

  /**
   * Ends this run (see {@link index!DoorRun.end}): fires its session's cleanups, as the idle
   * alarm does, and sets the alarm for deleting its storage.
   */
  async end(caller: Identity): Promise<Reply<RunInfo>> {
    const wasEnded = this.run.record?.ended ?? true;
    const reply = await this.run.end(caller);
    if (reply.ok && !wasEnded) await this.afterEnd();
    return reply;
  }

  /**
   * The object's one alarm. On a live run it is the idle alarm: it ends the run, unless a call is
   * still running or one waits for approval within `approvalWindowMs` (then it waits again). On an ended run it deletes the run's storage once the
   * retention window has passed (and waits again if it fired early).
   */
  override async alarm(): Promise<void> {
    this.alarmAt = undefined;
    const record = this.run.record;
    if (!record) return;
    if (record.ended) {
      const due = (record.endedAt ?? record.createdAt) + this.retentionMs;
      if (Date.now() < due) return this.ctx.storage.setAlarm(due);
      // The alarm first: deleteAlarm after deleteAll would write the alarm's metadata back into
      // the emptied database, and an object with any storage left is billed for it.
      await this.ctx.storage.deleteAlarm();
      await this.ctx.storage.deleteAll();
      this.run.forget();
      // The slot was given back when the run finished; again here, in case that release failed,
      // and the run leaves its identity's list (GET /runs) as it leaves storage.
      this.releaseSlot?.(record);
      return;
    }
    // A call that runs keeps the object alive (within its bound); one that runs, or waits for a
    // person within the window, is not idleness: wait another idle time.
    if (await this.keepAlive()) return;
    const waiting = this.run.approvalsWaitUntil(this.approvalWindowMs);
    if (this.run.working().length > 0 || (waiting !== undefined && Date.now() < waiting)) return this.touch();
    await this.run.finish();
    await this.afterEnd();
  }

  /**
   * What follows a run's end however it ended: the session's cleanups, registered in this object
   * and able to fire nowhere else; then the alarm that deletes the run's storage.
   */
  private async afterEnd(): Promise<void> {
    const record = this.run.record;
    if (record?.sessionId !== undefined) await this.runtime.closeSession(record.sessionId, record.owner);
    this.alarmAt = undefined;
    await this.ctx.storage.setAlarm((record?.endedAt ?? Date.now()) + this.retentionMs);
  }

  /**
   * While a call runs within its bound (its tool's `timeoutMs` and a minute, or `maxCallMs`; for a
   * call waiting for its user's answer, its ask's window), sets
   * the alarm at most `keepAliveMs` ahead, so the object is woken (and kept) while no request is
   * open. Whether a call holds the object alive.
   */
  private async keepAlive(): Promise<boolean> {
    const now = Date.now();
    const held = this.run.working().some((handle) => {
      // A call waiting for its user holds the object until its asks' windows close.
      if (handle.asks) return handle.asks.some((ask) => now < ask.expiresAt);
      const timeoutMs = this.runtime.tools.get(handle.tool)?.timeoutMs;
      const bound = timeoutMs === undefined ? this.maxCallMs : Math.min(this.maxCallMs, timeoutMs + 60_000);
      // From when it last began running: a call resumed by an approval runs from its decision.
      return now - handle.updatedAt < bound;
    });
    if (!held) return false;
    const at = now + this.keepAliveMs;
    if (this.alarmAt !== undefined && this.alarmAt > now && this.alarmAt <= at) return true;
    await this.ctx.storage.setAlarm(at);
    this.alarmAt = at;
    return true;
  }

  /** Pushes the idle alarm back for the run's owner only: another identity's 404 changes nothing. */
  private async touchFor(caller: Identity): Promise<void> {
    if (this.run.owned(caller).ok) await this.touch();
  }

  /**
   * Pushes the idle alarm back; only a run that exists and has not ended gets one. setAlarm is a
   * storage write the reply waits for, too dear to make on every call, so an alarm already set at
   * least `idleMs` ahead is left alone, and a new one is set a tenth of `idleMs` further: a busy
   * run re-arms about once per tenth, and still ends between `idleMs` and 1.1 × `idleMs` after
   * its last request.
   */
  private async touch(): Promise<void> {
    const now = Date.now();
    if (this.alarmAt !== undefined && this.alarmAt >= now + this.idleMs) return;
    const record = this.run.record;
    if (!record || record.ended) return;
    // A call still running keeps the nearer alarm of keepAlive.
    if (await this.keepAlive()) return;
    const at = now + Math.ceil(this.idleMs * 1.1);
    await this.ctx.storage.setAlarm(at);
    this.alarmAt = at;
  }
}

/**
 * The class {@link createRunHost} makes: a Durable Object class for the `RUNS` binding.
 *
 * @example
 * ```ts
 * import type { Runtime } from '@toolctx/core';
 * import type { ExampleWorkerEnv } from '@toolctx/edge';
 * import { createRunHost, type RunHostClass } from '@toolctx/edge/durable-objects';
 * declare const runtime: Runtime;
 * const RunHostBase: RunHostClass<ExampleWorkerEnv> = createRunHost<ExampleWorkerEnv>(() => runtime);
 * export class RunHost extends RunHostBase {}
 * ```
 */
export type RunHostClass<E> = new (ctx: DurableObjectState, env: E) => RunHostObject<E>;

/**
 * Makes the run host's Durable Object class around your tools. `runtimeFor` takes the Worker's
 * bindings and is called once per `env` object, as {@link index!createToolServer}'s is: give both the
 * same function and the objects and the door in one isolate share the one runtime it made.
 * `options`, when it is a function, is called once per object (to read vars such as an idle time
 * from `env`, or to name a binding, such as `identityState`). Export the class under the name
 * `wrangler.jsonc` binds.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import type { ExampleWorkerEnv } from '@toolctx/edge';
 * import { createRunHost } from '@toolctx/edge/durable-objects';
 * declare const tools: AnyTool[];
 *
 * export class RunHost extends createRunHost<ExampleWorkerEnv>(() => createRuntime({ tools }), { idleMs: 600_000 }) {}
 * // Or per env: export class RunHost extends createRunHost<ExampleWorkerEnv>(runtimeFor, (env) => ({ idleMs: Number(env.TOOLCTX_RUN_IDLE_MS) })) {}
 * ```
 */
export function createRunHost<E = unknown>(
  runtimeFor: (env: E) => Runtime,
  options: RunHostOptions | ((env: E) => RunHostOptions) = {},
): RunHostClass<E> {
  return class RunHost extends RunHostObject<E> {
    constructor(ctx: DurableObjectState, env: E) {
      super(ctx, env, sharedRuntime(runtimeFor, env), typeof options === 'function' ? options(env) : options);
    }
  };
}

function positiveMs(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new RangeError(`${name} must be a positive number of milliseconds, not ${value}.`);
  return value;
}
