import type { EventLog } from '../events/event-log.js';
import { cloneSafetyProblem } from '../progress/clone-safe.js';
import type { Attempt } from '../runtime/attempt.js';
import type { Identity, Phase, ProgressPayload, ToolDispatch, ToolExecutionContext } from './types.js';

/** What the run knows that every context of it shares. */
export interface RunFacts {
  readonly runId: string | undefined;
  readonly sessionId: string | undefined;
  readonly identity: Readonly<Identity> | undefined;
  readonly state: Readonly<Record<string, unknown>>;
  readonly phase: Phase;
  readonly log: EventLog;
  readonly stats: RunStats;
}

/** Counters a run keeps of what it dropped. */
export interface RunStats {
  /** Progress reports filed after their call had settled. */
  progressDropped: number;
  /** Progress reports refused because they were not plain data. */
  progressRejected: number;
}

/** What is particular to one call. */
export interface CallFacts {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly parentId: string | undefined;
  readonly iteration: number;
  readonly dispatch: ToolDispatch | undefined;
}

/**
 * Builds the context a tool receives. The one place a `ToolExecutionContext` is made: every door
 * reaches tools through the runtime, and the runtime through here.
 */
export function createToolContext(run: RunFacts, call: CallFacts, attempt: Attempt): ToolExecutionContext {
  return new ToolContext(run, call, attempt);
}

class ToolContext implements ToolExecutionContext {
  readonly runId?: string;
  readonly sessionId?: string;
  readonly identity?: Readonly<Identity>;
  readonly tools?: ToolDispatch;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly iteration: number;
  readonly state: Readonly<Record<string, unknown>>;
  readonly phase: Phase;
  private reports = 0;

  constructor(
    private readonly run: RunFacts,
    private readonly call: CallFacts,
    private readonly attempt: Attempt,
  ) {
    if (run.runId !== undefined) this.runId = run.runId;
    if (run.sessionId !== undefined) this.sessionId = run.sessionId;
    if (run.identity !== undefined) this.identity = run.identity;
    if (call.dispatch !== undefined) this.tools = call.dispatch;
    this.toolCallId = call.toolCallId;
    this.toolName = call.toolName;
    this.iteration = call.iteration;
    this.state = run.state;
    this.phase = run.phase;
  }

  get signal(): AbortSignal {
    return this.attempt.signal;
  }

  progress(payload: ProgressPayload): void {
    try {
      if (this.attempt.settled) {
        this.run.stats.progressDropped++;
        return;
      }
      const { log, stats } = this.run;
      const problem = cloneSafetyProblem(payload);
      if (problem) {
        stats.progressRejected++;
        log.emit(
          'tool.progress_rejected',
          { tool: this.toolName, reason: `The report holds ${problem}.` },
          this.toolCallId,
          this.call.parentId,
        );
        return;
      }
      log.emit(
        'tool.progress',
        { tool: this.toolName, payload, n: ++this.reports },
        this.toolCallId,
        this.call.parentId,
      );
    } catch {
      // Progress never throws into a tool; the event log already reports failing sinks.
    }
  }

  emit(type: string, data?: unknown): void {
    const name = type.startsWith('custom.') ? type.slice('custom.'.length) : type;
    if (name === '') throw new TypeError('ctx.emit needs an event name, such as ctx.emit("step", {...}).');
    const problem = cloneSafetyProblem(data);
    if (problem) throw new TypeError(`ctx.emit("${name}") data holds ${problem}; send plain data.`);
    if (this.attempt.settled) return;
    this.run.log.emit(`custom.${name}`, data ?? null, this.toolCallId, this.call.parentId);
  }
}
