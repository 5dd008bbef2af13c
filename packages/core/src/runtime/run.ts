import type { CallFacts, RunFacts, RunStats } from '../context/create-context.js';
import type { CallRequest, Identity, ToolDispatch, ToolResult } from '../context/types.js';
import type { ErrorInfo } from '../errors.js';
import type { EventLog, RunEvents } from '../events/event-log.js';
import type { Phase } from '../policy/phase.js';
import { argsInvalid, validate } from '../tools/schema.js';
import type { Attempt } from './attempt.js';
import { type DispatchFactory, Invocation } from './invocation.js';
import type { RuntimeCore } from './runtime-core.js';

/** Options of `runtime.startRun`. */
export interface StartRunOptions {
  /** Who the run acts for, as the host established it. Scopes artifacts, credentials and taint. */
  identity?: Identity;
  /** The caller's session; caller data, never trusted alone. */
  sessionId?: string;
  /** Cancels the whole run. */
  signal?: AbortSignal;
  /** Default `act`. */
  phase?: Phase;
  /** Read-only host data every call sees as `ctx.state`. */
  state?: Record<string, unknown>;
  /** For doors that name runs themselves (a Durable Object per run): the id to use. */
  runId?: string;
}

/**
 * A run: a sequence of tool calls with one ordered event record.
 *
 * @example
 * ```ts
 * const run = runtime.startRun({ identity: { tenant: 'acme', principal: 'ana' } });
 * const result = await run.call({ tool: 'count_words', args: { text: 'a b c' } });
 * if (result.ok) console.log(result.content); // '3'
 * await run.end();
 * ```
 */
export interface Run {
  readonly runId: string;
  /** Every event of the run, in `seq` order. */
  readonly events: RunEvents;
  /** Fires when the run is aborted or ended. */
  readonly signal: AbortSignal;
  /** Counters of progress reports the run dropped or refused. */
  readonly stats: Readonly<RunStats>;
  /** Calls one tool; a batch of one. Resolves to a `ToolResult`, never rejects for the tool's failure. */
  call(request: CallRequest): Promise<ToolResult>;
  /** Calls tools concurrently, one batch; results in the order asked. */
  callBatch(requests: readonly CallRequest[]): Promise<ToolResult[]>;
  /** Cancels every call in flight, then finishes the run as aborted. */
  abort(reason?: string): Promise<void>;
  /** Finishes the run: cancels what is still in flight and emits `run.finished`. */
  end(): Promise<void>;
}

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
  private iterations = 0;
  private calls = 0;
  private finished: Promise<void> | undefined;
  private readonly controller = new AbortController();
  private readonly dispatchFactory: DispatchFactory | undefined;
  /** Calls in flight. */
  private readonly inflight = new Set<Invocation>();

  constructor(
    private readonly core: RuntimeCore,
    readonly runId: string | undefined,
    readonly log: EventLog,
    options: StartRunOptions,
  ) {
    this.phase = options.phase ?? 'act';
    this.dispatchFactory = core.door.dispatch
      ? (parent, call) => this.childDispatch(parent, call)
      : undefined;
    this.sessionId = options.sessionId;
    this.identity = options.identity ? Object.freeze({ ...options.identity }) : undefined;
    this.state = Object.freeze({ ...options.state });
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

  call(request: CallRequest): Promise<ToolResult> {
    return this.start(request, ++this.iterations, undefined, undefined);
  }

  callBatch(requests: readonly CallRequest[]): Promise<ToolResult[]> {
    const iteration = ++this.iterations;
    return Promise.all(requests.map((request) => this.start(request, iteration, undefined, undefined)));
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
      if (this.runId !== undefined) this.log.emit('run.finished', { status, calls: this.calls });
      this.log.close();
    })();
    return this.finished;
  }

  private start(
    request: CallRequest,
    iteration: number,
    parent: Attempt | undefined,
    parentId: string | undefined,
  ): Promise<ToolResult> {
    const invocation = new Invocation();
    this.inflight.add(invocation);
    if (parent) {
      parent.children ??= new Set();
      parent.children.add(invocation);
    }
    const done = this.perform(request, iteration, invocation, parent, parentId);
    invocation.done = done;
    return done;
  }

  private async perform(
    request: CallRequest,
    iteration: number,
    invocation: Invocation,
    parent: Attempt | undefined,
    parentId: string | undefined,
  ): Promise<ToolResult> {
    const signal = request.signal;
    let onAbort: (() => void) | undefined;
    try {
      const toolCallId = request.toolCallId ?? nextCallId();
      const tool = this.core.tools.get(request.tool);
      if (!tool) return this.fail(request.tool, toolCallId, parentId, this.core.unknownTool(request.tool), 0);
      if (this.finished) return this.fail(tool.name, toolCallId, parentId, runEnded, 0);
      this.calls++;
      const startedAt = Date.now();
      this.log.emit('tool.started', { tool: tool.name }, toolCallId, parentId, startedAt);
      if (signal) {
        onAbort = () => invocation.abort(cancelledByCaller);
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      }

      let parsed = validate(tool.input, request.args);
      if (parsed instanceof Promise) parsed = await parsed;
      if (parsed.issues) {
        return this.fail(tool.name, toolCallId, parentId, argsInvalid(tool.name, parsed.issues), startedAt);
      }
      const call: CallFacts = { toolCallId, toolName: tool.name, parentId, iteration };
      const outcome = tool.retry
        ? await invocation.withRetries(tool, parsed.value, this, call, this.dispatchFactory)
        : await invocation.attemptOnce(tool, parsed.value, this, call, this.dispatchFactory);
      if (!outcome.ok) return this.fail(tool.name, toolCallId, parentId, outcome.error, startedAt);
      const value = outcome.value;
      const content = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
      const endedAt = Date.now();
      const data = { tool: tool.name, durationMs: endedAt - startedAt };
      this.log.emit('tool.finished', data, toolCallId, parentId, endedAt);
      return { ok: true, value, content };
    } finally {
      if (onAbort) signal!.removeEventListener('abort', onAbort);
      this.inflight.delete(invocation);
      parent?.children?.delete(invocation);
    }
  }

  /** Makes `ctx.tools` for an attempt: child calls in this run, ended with their parent. */
  private childDispatch(parent: Attempt, call: CallFacts): ToolDispatch {
    return {
      call: (request) => {
        if (parent.settled) return Promise.resolve({ ok: false, error: parentEnded });
        return this.start(request, call.iteration, parent, call.toolCallId);
      },
    };
  }

  private fail(
    tool: string,
    callId: string,
    parentId: string | undefined,
    error: ErrorInfo,
    startedAt: number,
  ): ToolResult {
    const endedAt = Date.now();
    const durationMs = startedAt ? endedAt - startedAt : 0;
    this.log.emit('tool.failed', { tool, durationMs, error }, callId, parentId, endedAt);
    return { ok: false, error };
  }
}

const runEnded: ErrorInfo = {
  kind: 'aborted',
  message: 'The run has ended; start a new run.',
  retryable: false,
};
const cancelledByCaller: ErrorInfo = {
  kind: 'aborted',
  message: 'The call was cancelled by its caller.',
  retryable: false,
};
const parentEnded: ErrorInfo = { kind: 'aborted', message: 'The parent call has ended.', retryable: false };

// Call ids need to be unique, not secret: a random prefix per process and a counter.
const callIdPrefix = `call_${crypto.randomUUID().slice(0, 8)}_`;
let callCounter = 0;
function nextCallId(): string {
  return callIdPrefix + (++callCounter).toString(36);
}
