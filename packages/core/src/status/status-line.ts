// The line a status model keeps per call, in a file of its own: the model and the timing both
// read it, and neither imports the other for it.
import type { LineState } from './templates.js';

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
  /** Event time of the last sign of life: the start, a report, a retry. */
  readonly lastReportAt: number;
  /** The tool's timeout, from `tool.started`, and when the current attempt's timeout fires. */
  readonly timeoutMs?: number;
  readonly timeoutAt?: number;
  /** The duration the runtime measured, once the call ended. */
  readonly durationMs?: number;
}
