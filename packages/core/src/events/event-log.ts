import type { Effect } from '../policy/phase.js';
import { checkEvent, type EventData, type EventType, type ToolEvent } from './catalogue.js';

/**
 * Receives every event, synchronously. Must be quick; a sink that throws is detached. Every sink
 * and subscriber gets the same event object: treat it as read-only (a `tool.started`'s data is
 * frozen, shared by the calls of one tool, and so is a short call's `tool.finished` data).
 *
 * A sink that labels events with where they come from (the door, a tool's effect), which events
 * do not repeat, has `forRuntime`: the runtime calls it once per door it serves through
 * (`createRuntime`, `withDoor`, and a run's `onEvent` at `startRun`) and uses the sink it returns
 * there, so the label costs nothing per event.
 */
export type EventSink = ((event: ToolEvent) => void) & {
  /** Optional: the sink to use at one runtime's door, asked once per door. */
  readonly forRuntime?: (origin: SinkOrigin) => (event: ToolEvent) => void;
};

/** What a runtime tells a sink's `forRuntime`: the door and the tools, by name. */
export interface SinkOrigin {
  /** The door's name, such as `in-process`, `mcp` or `http`. */
  readonly door: string;
  /** The runtime's tools by name, with what a label needs of each. */
  readonly tools: ReadonlyMap<string, { readonly effect: Effect; readonly description: string }>;
}

/** The sink to use at `origin`: the sink's own choice, or the sink itself. */
export function sinkAt(sink: EventSink, origin: SinkOrigin): EventSink {
  return sink.forRuntime ? sink.forRuntime(origin) : sink;
}

/** Told once about a sink that threw and was detached. */
export type SinkErrorHandler = (error: unknown, event: ToolEvent) => void;

/**
 * A run's events: subscribe for a callback per event, or iterate with `for await` from now until
 * the run finishes.
 */
export interface RunEvents extends AsyncIterable<ToolEvent> {
  /** Calls `listener` for each event from now on; returns the function that stops it. */
  subscribe(listener: EventSink): () => void;
}

/**
 * One run's ordered record: stamps `seq` (one more per event), checks each event against the
 * catalogue, and hands it to the runtime's sinks and the run's subscribers. Work per event does
 * not depend on how many came before.
 */
export class EventLog implements RunEvents {
  private seq: number;
  private readonly listeners: EventSink[];
  private closed = false;
  private readonly waiters = new Set<(event: ToolEvent | undefined) => void>();

  constructor(
    private readonly runId: string | undefined,
    sinks: readonly EventSink[],
    private readonly onSinkError: SinkErrorHandler,
    /** The `seq` before the first event: above 0 for a run that continues a recorded one. */
    lastSeq = 0,
  ) {
    this.listeners = sinks.slice();
    this.seq = lastSeq;
  }

  /** The `seq` of the last event made (0 before any). */
  get lastSeq(): number {
    return this.seq;
  }

  emit<T extends EventType>(
    type: T,
    data: EventData<T>,
    callId?: string,
    parentId?: string,
    ts = Date.now(),
  ): ToolEvent<T> {
    checkEvent(type, data);
    return this.deliver(makeEvent(type, ++this.seq, ts, data, this.runId, callId, parentId));
  }

  /**
   * A call's own start or end, as the call pipeline builds it: its data has the catalogue's keys
   * by construction, so the check {@link emit} makes is skipped (it cost a trivial call about a
   * tenth of its overhead).
   */
  emitCallEvent<T extends 'tool.started' | 'tool.finished' | 'tool.failed'>(
    type: T,
    data: EventData<T>,
    callId: string,
    parentId: string | undefined,
    ts: number,
  ): ToolEvent<T> {
    return this.deliver(makeEvent(type, ++this.seq, ts, data, this.runId, callId, parentId));
  }

  private deliver<T extends EventType>(event: ToolEvent<T>): ToolEvent<T> {
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) {
      const listener = listeners[i]!;
      try {
        listener(event);
      } catch (error) {
        this.detach(listener);
        i--;
        this.onSinkError(error, event);
      }
    }
    return event;
  }

  subscribe(listener: EventSink): () => void {
    this.listeners.push(listener);
    return () => this.detach(listener);
  }

  /** After this, iterators end once they have delivered what they buffered. */
  close(): void {
    this.closed = true;
    for (const wake of this.waiters) wake(undefined);
    this.waiters.clear();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ToolEvent> {
    const buffer: ToolEvent[] = [];
    let wake: ((event: ToolEvent | undefined) => void) | undefined;
    const unsubscribe = this.subscribe((event) => {
      if (wake) {
        const resolve = wake;
        wake = undefined;
        this.waiters.delete(resolve);
        resolve(event);
      } else buffer.push(event);
    });
    try {
      while (true) {
        const buffered = buffer.shift();
        if (buffered) {
          yield buffered;
          continue;
        }
        if (this.closed) return;
        const next = await new Promise<ToolEvent | undefined>((resolve) => {
          wake = resolve;
          this.waiters.add(resolve);
        });
        if (!next) return;
        yield next;
      }
    } finally {
      unsubscribe();
    }
  }

  private detach(listener: EventSink): void {
    const index = this.listeners.indexOf(listener);
    if (index >= 0) this.listeners.splice(index, 1);
  }
}

/**
 * A call's event in a run (the most made) is one literal: one fixed shape, with no out-of-object
 * property store. An id that is absent stays absent, not `undefined`.
 */
function makeEvent<T extends EventType>(
  type: T,
  seq: number,
  ts: number,
  data: EventData<T>,
  runId: string | undefined,
  callId: string | undefined,
  parentId: string | undefined,
): ToolEvent<T> {
  if (runId !== undefined && callId !== undefined && parentId === undefined) {
    return { type, seq, ts, data, runId, callId };
  }
  const event: ToolEvent<T> = { type, seq, ts, data };
  if (runId !== undefined) event.runId = runId;
  if (callId !== undefined) event.callId = callId;
  if (parentId !== undefined) event.parentId = parentId;
  return event;
}
