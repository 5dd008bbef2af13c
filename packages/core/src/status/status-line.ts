// What one call's line of status is: plain types, importing nothing, so the timing helpers, the
// templates and the model (and a renderer) can all depend on them without depending on each other.

/**
 * The states a call's line can be in. `pending` is a call waiting for a person (an approval, an
 * answer to its ask, a sign-in): in flight, but not running, and never stalled.
 */
export type LineState = 'running' | 'pending' | 'done' | 'failed' | 'cancelled';

/**
 * A piece of a line's text: plain words, or `code` (a tool's name) that a renderer styles as code,
 * so no text carries Markdown backticks.
 *
 * @experimental Content parts may still change.
 */
export interface StatusPart {
  readonly type: 'text' | 'code';
  readonly text: string;
}

/** One call's line of status. */
export interface StatusLine {
  readonly callId: string;
  readonly parentId?: string;
  readonly tool: string;
  readonly state: LineState;
  /** The text to show: plain text, never markup; the `parts` joined. */
  readonly text: string;
  /** The same text in pieces, the tool's name as a `code` part, for a renderer that styles it. */
  readonly parts: readonly StatusPart[];
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
