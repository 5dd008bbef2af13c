import type { EventLog } from '../events/event-log.js';
import type { Phase } from '../policy/phase.js';
import { cloneSafetyProblem } from '../progress/clone-safe.js';
import type { Attempt } from '../runtime/attempt.js';
import type { Identity, ProgressPayload, ToolDispatch, ToolExecutionContext } from './types.js';

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
}

/**
 * Builds the context a tool receives. The one place a `ToolExecutionContext` is made: every door
 * reaches tools through the runtime, and the runtime through here. Run-wide facts are read
 * through to the run and costly parts (the signal, `ctx.tools`) are made on first use, so a call
 * that uses little pays little.
 */
export function createToolContext(
  run: RunFacts,
  call: CallFacts,
  attempt: Attempt,
  dispatch: ((attempt: Attempt, call: CallFacts) => ToolDispatch) | undefined,
): ToolExecutionContext {
  return new ToolContext(run, call, attempt, dispatch);
}

class ToolContext implements ToolExecutionContext {
  private reports = 0;
  private dispatch: ToolDispatch | undefined;

  constructor(
    private readonly run: RunFacts,
    private readonly call: CallFacts,
    private readonly attempt: Attempt,
    private readonly makeDispatch: ((attempt: Attempt, call: CallFacts) => ToolDispatch) | undefined,
  ) {}

  get runId(): string | undefined {
    return this.run.runId;
  }
  get sessionId(): string | undefined {
    return this.run.sessionId;
  }
  get identity(): Readonly<Identity> | undefined {
    return this.run.identity;
  }
  get state(): Readonly<Record<string, unknown>> {
    return this.run.state;
  }
  get phase(): Phase {
    return this.run.phase;
  }
  get toolCallId(): string {
    return this.call.toolCallId;
  }
  get toolName(): string {
    return this.call.toolName;
  }
  get iteration(): number {
    return this.call.iteration;
  }
  get tools(): ToolDispatch | undefined {
    if (!this.makeDispatch) return undefined;
    this.dispatch ??= this.makeDispatch(this.attempt, this.call);
    return this.dispatch;
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
          { tool: this.call.toolName, reason: `The report holds ${problem}.` },
          this.call.toolCallId,
          this.call.parentId,
        );
        return;
      }
      log.emit(
        'tool.progress',
        { tool: this.call.toolName, payload, n: ++this.reports },
        this.call.toolCallId,
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
    this.run.log.emit(`custom.${name}`, data ?? null, this.call.toolCallId, this.call.parentId);
  }
}
