import type { ErrorInfo } from '../errors.js';
import type { ToolEvent } from '../events/catalogue.js';
import { formatDuration, formatNumber } from './format.js';
import { cutMessage } from './grapheme-cut.js';
import { checkTimingOptions, type LineTiming, lineTiming, type TimingOptions } from './line-timing.js';
import type { LineState, StatusLine, StatusPart } from './status-line.js';
import { failureValues, kindValue, runLine } from './status-words.js';
import {
  defaultTemplates,
  fillParts,
  fillTemplate,
  joinParts,
  type Moment,
  pickTemplate,
  type Templates,
  type TemplateValues,
} from './templates.js';

/** The run at a glance: counts by state, kept as events arrive, and the run line's text. */
export interface RunSummary {
  readonly total: number;
  /** Calls running; a call waiting for a person counts in `pending`, not here. */
  readonly running: number;
  readonly pending: number;
  readonly done: number;
  readonly failed: number;
  readonly cancelled: number;
  /** The run line, e.g. `1 running, 1 waiting · 3 done, 1 cancelled of 6`. */
  readonly text: string;
}

/** A line's clock at one moment, with its words: the elapsed time and a stall or timeout note. */
export interface LineClock extends LineTiming {
  /** The elapsed time (the duration once ended), formatted for the locale. */
  readonly elapsed: string;
  /** `no report for 12 s`, `times out in 3 s`, or empty when all is well. */
  readonly note: string;
}

/** Options of `createStatusModel`. */
export interface StatusModelOptions extends TimingOptions {
  /**
   * Replace any default template, add per-tool ones (`tool.<name>.progress`, …) or a language pack.
   * A line's text is filled when it is read, so a function template runs then, with the line's
   * latest values, and not for reports nobody read.
   */
  templates?: Templates;
  /** Longest message shown, in graphemes. Default 120. */
  maxMessageLength?: number;
  /** The BCP 47 locale numbers and durations are formatted for. Default: the runtime's. */
  locale?: string;
}

/** The incremental reducer from events to status lines. */
export interface StatusModel {
  /** Takes one event; gives the line it changed, if any. Constant work per event. */
  apply(event: ToolEvent): StatusLine | undefined;
  /** Every line, in the order the calls first appeared. */
  lines(): StatusLine[];
  /** One call's line. */
  line(callId: string): StatusLine | undefined;
  /**
   * Counts by state and the run line; constant work, however long the run. The same object is
   * given again until a count changes.
   */
  summary(): RunSummary;
  /** A line's clock at `now` (ms, the clock of event `ts`): elapsed time, stall, near timeout. */
  clock(line: StatusLine, now: number): LineClock;
  /** Fills the template `key` (any key, such as `finished.toggle`) with the model's locale. */
  text(key: string, values?: TemplateValues): string;
}

type MutableLine = { -readonly [K in keyof StatusLine]: StatusLine[K] };

/**
 * What a line last said, kept as plain data: `text` is filled from it when read, so a flood of
 * reports costs a few field writes each and the formatting runs once per read (a frame, say).
 */
interface Said {
  moment: Moment;
  values: Omit<TemplateValues, 'tool'>;
  /** The last report's message as sent (trimmed and cut when read); progress only. */
  message?: string;
  /** A failure's error kind, for the `tool.failed.<kind>` rungs. */
  kind?: string;
  /** The parts filled from the above, and their text, until the line says something new. */
  parts?: readonly StatusPart[];
  text?: string;
  /** While the call waits for an answer: when it asked, and what the line said before. */
  askedAt?: number;
  before?: Said;
}

/**
 * Creates the status model: a pure, incremental reducer from events to one line per call. It never
 * replays history, so a live run and a recording replayed into a fresh model give the same lines.
 * Each event only updates plain data; a line's `text` is formatted when it is read, once per change.
 *
 * @example
 * ```ts
 * import type { Run } from '@toolctx/core';
 * import { createStatusModel } from '@toolctx/core/status';
 * declare const run: Run;
 * const status = createStatusModel({ templates: { 'tool.search.done': 'Found it' } });
 * run.events.subscribe((event) => {
 *   const line = status.apply(event);
 *   if (line) console.log(line.text);
 * });
 * ```
 */
export function createStatusModel(options: StatusModelOptions = {}): StatusModel {
  checkTimingOptions(options);
  // The host's templates climb the whole ladder before the defaults are asked.
  const templates: Templates = { ...options.templates };
  const max = options.maxMessageLength ?? 120;
  const { locale } = options;
  const byCall = new Map<string, MutableLine>();
  const saidBy = new WeakMap<StatusLine, Said>();
  // Kept per transition so the run line costs the same at the thousandth call as at the first.
  const counts: Record<LineState, number> = { running: 0, pending: 0, done: 0, failed: 0, cancelled: 0 };
  // The run line as of the last count change: a widget asks for it every frame, a count changes rarely.
  let summary: RunSummary | undefined;
  const number = (value: number) => formatNumber(value, locale);
  const text = (key: string, values: TemplateValues = {}) =>
    fillTemplate(templates[key] ?? defaultTemplates[key] ?? key, values, number);

  function lineFor(event: ToolEvent, tool: string): MutableLine {
    const callId = event.callId!;
    let line = byCall.get(callId);
    if (!line) {
      const said: Said = { moment: 'started', values: {}, parts: [{ type: 'text', text: '' }], text: '' };
      line = {
        callId,
        tool,
        state: 'running',
        reports: 0,
        startedAt: event.ts,
        lastReportAt: event.ts,
      } as MutableLine;
      // Own, enumerable getters, so a spread or a deep equal sees `text` and `parts` like any field.
      const parts = () => (said.parts ??= fill(line!, said));
      Object.defineProperty(line, 'parts', { enumerable: true, get: parts });
      Object.defineProperty(line, 'text', {
        enumerable: true,
        get: () => (said.text ??= joinParts(parts())),
      });
      if (event.parentId !== undefined) line.parentId = event.parentId;
      saidBy.set(line, said);
      byCall.set(callId, line);
      counts.running++;
      summary = undefined;
    }
    return line;
  }

  function enter(line: MutableLine, state: LineState): void {
    counts[line.state]--;
    counts[state]++;
    line.state = state;
    summary = undefined;
  }

  function say(
    line: MutableLine,
    moment: Moment,
    values: Omit<TemplateValues, 'tool'> = {},
    kind?: string,
  ): void {
    const said = saidBy.get(line)!;
    said.moment = moment;
    said.values = values;
    said.kind = kind;
    said.message = undefined;
    said.parts = said.text = undefined;
  }

  // Reads only what `say` and the progress case keep current: the line's tool, reports, done, total.
  function fill(line: MutableLine, said: Said): readonly StatusPart[] {
    const message = said.message?.trim() ? cutMessage(said.message, max) : undefined;
    const values = message === undefined ? said.values : { ...said.values, message };
    const { kind } = said;
    const needs = kind === undefined ? undefined : kindValue[kind];
    const generic =
      ((said.moment === 'progress' || said.moment === 'asking') && values.message === undefined) ||
      (needs !== undefined && (values as TemplateValues)[needs] === undefined);
    const template = pickTemplate(templates, line.tool, said.moment, generic, kind);
    return fillParts(template, { tool: line.tool, count: line.reports, ...values, ...numbers(line) }, number);
  }

  return {
    apply(event) {
      if (event.callId === undefined) return undefined;
      const data = event.data as {
        tool?: string;
        payload?: unknown;
        error?: ErrorInfo;
        reason?: string;
        message?: unknown;
        timeoutMs?: number;
        delayMs?: number;
        durationMs?: number;
      };
      if (typeof data?.tool !== 'string') return undefined;
      switch (event.type) {
        case 'tool.started': {
          const line = lineFor(event, data.tool);
          if (isCount(data.timeoutMs)) {
            line.timeoutMs = data.timeoutMs;
            line.timeoutAt = event.ts + data.timeoutMs;
          }
          say(line, 'started');
          return line;
        }
        case 'tool.retry': {
          const line = lineFor(event, data.tool);
          if (line.state !== 'running') return undefined;
          // The next attempt starts after the delay, with a fresh timeout.
          line.lastReportAt = event.ts + (isCount(data.delayMs) ? data.delayMs : 0);
          if (line.timeoutMs !== undefined) line.timeoutAt = line.lastReportAt + line.timeoutMs;
          return line;
        }
        case 'tool.pending': {
          const line = lineFor(event, data.tool);
          enter(line, 'pending');
          say(line, 'pending', { reason: text(`reason.${data.reason}`) });
          return line;
        }
        case 'approval.decided': {
          const line = lineFor(event, data.tool);
          if (line.state !== 'pending') return undefined;
          enter(line, 'running');
          line.lastReportAt = event.ts;
          say(line, 'started');
          return line;
        }
        case 'ask.requested': {
          const line = lineFor(event, data.tool);
          const said = saidBy.get(line)!;
          if (line.state !== 'running' || said.askedAt !== undefined) return undefined;
          enter(line, 'pending');
          // Kept, so the line says again what it said once the person has answered.
          const before = { ...said };
          say(line, 'asking');
          said.before = before;
          said.askedAt = event.ts;
          said.message = typeof data.message === 'string' ? data.message : undefined;
          return line;
        }
        case 'ask.answered': {
          const line = lineFor(event, data.tool);
          const said = saidBy.get(line)!;
          if (line.state !== 'pending' || said.askedAt === undefined) return undefined;
          enter(line, 'running');
          // The tool's timeout was held while it waited: it goes on with the time it had left.
          if (line.timeoutAt !== undefined) line.timeoutAt += event.ts - said.askedAt;
          line.lastReportAt = event.ts;
          Object.assign(said, said.before, { askedAt: undefined, before: undefined });
          said.parts = said.text = undefined;
          return line;
        }
        case 'tool.progress': {
          const line = lineFor(event, data.tool);
          if (line.state !== 'running') return undefined;
          line.reports++;
          line.lastReportAt = event.ts;
          // Plain data only: the message is trimmed, cut and filled in when the text is read.
          const said = saidBy.get(line)!;
          if (said.moment !== 'progress') say(line, 'progress');
          said.message = readPayload(data.payload, line);
          said.parts = said.text = undefined;
          return line;
        }
        case 'tool.finished':
        case 'tool.failed': {
          const line = lineFor(event, data.tool);
          if (line.endedAt !== undefined) return undefined;
          const cancelled = data.error?.kind === 'aborted';
          enter(line, event.type === 'tool.finished' ? 'done' : cancelled ? 'cancelled' : 'failed');
          line.endedAt = event.ts;
          if (isCount(data.durationMs)) line.durationMs = data.durationMs;
          if (line.state === 'failed' && data.error) {
            say(line, 'failed', failureValues(data.error, line.timeoutMs, locale), data.error.kind);
          } else say(line, line.state as Moment, data.error ? { error: data.error.message } : {});
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
    summary() {
      if (summary) return summary;
      const values = { ...counts, total: byCall.size };
      summary = { ...values, text: runLine(text, values) };
      return summary;
    },
    clock(line, now) {
      const timing = lineTiming(line, now, options);
      const ended = line.endedAt !== undefined;
      const elapsed = formatDuration(timing.elapsedMs, locale, ended);
      const note = timing.nearTimeout
        ? text('call.timeout', {
            remaining: formatDuration(Math.ceil(timing.remainingMs! / 1000) * 1000, locale),
          })
        : timing.stalled
          ? text('call.stalled', { silence: formatDuration(timing.silentMs, locale) })
          : '';
      return { ...timing, elapsed: text('call.elapsed', { elapsed }), note };
    },
    text,
  };
}

/** Takes `done` and `total` into the line and answers the message, without allocating. */
function readPayload(payload: unknown, line: MutableLine): string | undefined {
  if (typeof payload === 'string') return payload;
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { message, done, total } = payload as Record<string, unknown>;
  if (isCount(done)) line.done = done;
  if (isCount(total)) line.total = total;
  return typeof message === 'string' ? message : undefined;
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
