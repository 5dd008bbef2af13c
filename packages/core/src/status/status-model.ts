import type { ErrorInfo } from '../errors.js';
import type { ToolEvent } from '../events/catalogue.js';
import { cutMessage } from './grapheme-cut.js';
import { fillTemplate, type LineState, type Moment, pickTemplate, type Templates } from './templates.js';

/** One call's line of status. */
export interface StatusLine {
  readonly callId: string;
  readonly parentId?: string;
  readonly tool: string;
  readonly state: LineState;
  /** The text to show: plain text, never markup. */
  readonly text: string;
  /** Numbers for a progress bar, from the last report that had them. */
  readonly done?: number;
  readonly total?: number;
  /** Progress reports so far. */
  readonly reports: number;
  /** Event times (ms) of the start and, once it ended, the end. */
  readonly startedAt: number;
  readonly endedAt?: number;
}

/** Options of `createStatusModel`. */
export interface StatusModelOptions {
  /** Replace any default template, or add per-tool ones (`tool.<name>.progress`, …). */
  templates?: Templates;
  /** Longest message shown, in graphemes. Default 120. */
  maxMessageLength?: number;
}

/** The incremental reducer from events to status lines. */
export interface StatusModel {
  /** Takes one event; gives the line it changed, if any. Constant work per event. */
  apply(event: ToolEvent): StatusLine | undefined;
  /** Every line, in the order the calls first appeared. */
  lines(): StatusLine[];
  /** One call's line. */
  line(callId: string): StatusLine | undefined;
}

type MutableLine = { -readonly [K in keyof StatusLine]: StatusLine[K] };

/**
 * Creates the status model: a pure, incremental reducer from events to one line per call. It never
 * replays history, so a live run and a recording replayed into a fresh model give the same lines.
 *
 * @example
 * ```ts
 * import { createStatusModel } from '@toolctx/core';
 * const status = createStatusModel({ templates: { 'tool.search.done': 'Found it' } });
 * run.events.subscribe((event) => {
 *   const line = status.apply(event);
 *   if (line) console.log(line.text);
 * });
 * ```
 */
export function createStatusModel(options: StatusModelOptions = {}): StatusModel {
  // The host's templates climb the whole ladder before the defaults are asked.
  const templates: Templates = { ...options.templates };
  const max = options.maxMessageLength ?? 120;
  const byCall = new Map<string, MutableLine>();

  function lineFor(event: ToolEvent, tool: string): MutableLine {
    const callId = event.callId!;
    let line = byCall.get(callId);
    if (!line) {
      line = { callId, tool, state: 'running', text: '', reports: 0, startedAt: event.ts };
      if (event.parentId !== undefined) line.parentId = event.parentId;
      byCall.set(callId, line);
    }
    return line;
  }

  function say(
    line: MutableLine,
    moment: Moment,
    values: { message?: string; error?: string; reason?: string } = {},
  ): void {
    const generic = moment === 'progress' && values.message === undefined;
    const template = pickTemplate(templates, line.tool, moment, generic);
    line.text = fillTemplate(template, { tool: line.tool, count: line.reports, ...values, ...numbers(line) });
  }

  return {
    apply(event) {
      if (event.callId === undefined) return undefined;
      const data = event.data as { tool?: string; payload?: unknown; error?: ErrorInfo; reason?: string };
      if (typeof data?.tool !== 'string') return undefined;
      switch (event.type) {
        case 'tool.started': {
          const line = lineFor(event, data.tool);
          say(line, 'started');
          return line;
        }
        case 'tool.pending': {
          const line = lineFor(event, data.tool);
          line.state = 'pending';
          say(line, 'pending', { reason: String(data.reason) });
          return line;
        }
        case 'approval.decided': {
          const line = lineFor(event, data.tool);
          if (line.state !== 'pending') return undefined;
          line.state = 'running';
          say(line, 'started');
          return line;
        }
        case 'tool.progress': {
          const line = lineFor(event, data.tool);
          if (line.state !== 'running') return undefined;
          line.reports++;
          const { message, done, total } = readPayload(data.payload);
          if (done !== undefined) line.done = done;
          if (total !== undefined) line.total = total;
          say(line, 'progress', message === undefined ? {} : { message: cutMessage(message, max) });
          return line;
        }
        case 'tool.finished':
        case 'tool.failed': {
          const line = lineFor(event, data.tool);
          const cancelled = data.error?.kind === 'aborted';
          line.state = event.type === 'tool.finished' ? 'done' : cancelled ? 'cancelled' : 'failed';
          line.endedAt = event.ts;
          say(line, line.state as Moment, data.error ? { error: data.error.message } : {});
          return line;
        }
        default:
          return undefined;
      }
    },
    lines: () => [...byCall.values()].map((line) => ({ ...line })),
    line(callId) {
      const line = byCall.get(callId);
      return line && { ...line };
    },
  };
}

function readPayload(payload: unknown): { message?: string; done?: number; total?: number } {
  if (typeof payload === 'string') return payload.trim() ? { message: payload } : {};
  if (typeof payload !== 'object' || payload === null) return {};
  const { message, done, total } = payload as Record<string, unknown>;
  return {
    ...(typeof message === 'string' && message.trim() ? { message } : {}),
    ...(isCount(done) ? { done } : {}),
    ...(isCount(total) ? { total } : {}),
  };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function numbers(line: MutableLine): { done?: number; total?: number } {
  return {
    ...(line.done !== undefined ? { done: line.done } : {}),
    ...(line.total !== undefined ? { total: line.total } : {}),
  };
}
