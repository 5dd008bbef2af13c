import type { StatusLine } from './status-line.js';

/** The clock-dependent facts of a line at one moment. */
export interface LineTiming {
  /** Time since the call started, or its duration once it ended. */
  readonly elapsedMs: number;
  /** Time since the call's last sign of life (start, report, retry); 0 once it ended. */
  readonly silentMs: number;
  /** In flight and silent for `stallAfterMs` or more. */
  readonly stalled: boolean;
  /** Time left before the call's timeout fires, when it has one and is in flight. */
  readonly remainingMs?: number;
  /** The timeout is near: `remainingMs` is at most `timeoutWarningMs` (or half the timeout). */
  readonly nearTimeout: boolean;
}

/** When a line counts as stalled and when a timeout counts as near. */
export interface TimingOptions {
  /** Silence that makes an in-flight call stalled. Default 10 000 ms. */
  stallAfterMs?: number;
  /** Time before a timeout at which to warn; never more than half the timeout. Default 5 000 ms. */
  timeoutWarningMs?: number;
}

/**
 * Reads `line` at `now` (ms, same clock as event `ts`). Pure and constant-time: a ticker can call it
 * for every in-flight line each second.
 *
 * @example
 * ```ts
 * import { createStatusModel, lineTiming } from '@toolctx/core/status';
 * const status = createStatusModel();
 * const line = status.line('call_1');
 * if (line) {
 *   const { stalled, elapsedMs } = lineTiming(line, Date.now(), { stallAfterMs: 5000 });
 * }
 * ```
 */
export function lineTiming(line: StatusLine, now: number, options: TimingOptions = {}): LineTiming {
  if (line.endedAt !== undefined) {
    const elapsedMs = line.durationMs ?? line.endedAt - line.startedAt;
    return { elapsedMs: Math.max(0, elapsedMs), silentMs: 0, stalled: false, nearTimeout: false };
  }
  const elapsedMs = Math.max(0, now - line.startedAt);
  const silentMs = Math.max(0, now - line.lastReportAt);
  // A call waiting for a person is not stalled: it is waiting, and its line says so.
  const stalled = line.state === 'running' && silentMs >= (options.stallAfterMs ?? 10_000);
  if (line.timeoutAt === undefined || line.timeoutMs === undefined || line.state !== 'running') {
    return { elapsedMs, silentMs, stalled, nearTimeout: false };
  }
  const remainingMs = Math.max(0, line.timeoutAt - now);
  const warnAt = Math.min(options.timeoutWarningMs ?? 5000, line.timeoutMs / 2);
  return { elapsedMs, silentMs, stalled, remainingMs, nearTimeout: remainingMs <= warnAt };
}

/** Checks the timing options, naming what was wrong; the model calls this once at creation. */
export function checkTimingOptions(options: TimingOptions): void {
  for (const name of ['stallAfterMs', 'timeoutWarningMs'] as const) {
    const value = options[name];
    if (value !== undefined && !(value > 0 && Number.isFinite(value))) {
      throw new RangeError(`Status option ${name} must be a positive number of milliseconds, not ${value}.`);
    }
  }
}
