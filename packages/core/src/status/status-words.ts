// The words around the lines that the model composes from several templates: the run line, and
// what a failure's templates may say.
import type { ErrorInfo } from '../errors.js';
import { formatDuration } from './format.js';
import type { TemplateValues } from './templates.js';

/** The value each error kind's own template is about: without it, the `.generic` variant is used. */
export const kindValue: Readonly<Record<string, keyof TemplateValues>> = {
  'approval-denied': 'reason',
  timeout: 'timeout',
};

/** What a failure's templates may say: the model's message, a person's reason, the timeout. */
export function failureValues(
  error: ErrorInfo,
  timeoutMs: number | undefined,
  locale?: string,
): TemplateValues {
  const values: TemplateValues = { error: error.message };
  const reason = error.details?.reason;
  if (typeof reason === 'string' && reason.trim()) values.reason = reason.trim();
  const ms = error.details?.timeoutMs ?? timeoutMs;
  if (typeof ms === 'number' && ms > 0 && Number.isFinite(ms))
    values.timeout = formatDuration(ms, locale, true);
  return values;
}

interface Counts {
  running: number;
  pending: number;
  done: number;
  failed: number;
  cancelled: number;
  total: number;
}

/**
 * The run line: what is in flight (`1 running, 1 waiting`), then the outcomes — `3 of 5 done` while
 * nothing failed or was cancelled, else each outcome counted (`1 done, 1 cancelled of 2`).
 */
export function runLine(text: (key: string, values: TemplateValues) => string, counts: Counts): string {
  let ended = text('run.summary', counts);
  if (counts.failed || counts.cancelled) {
    const outcomes = [text('run.done', counts)];
    if (counts.failed) outcomes.push(text('run.failed', counts));
    if (counts.cancelled) outcomes.push(text('run.cancelled', counts));
    ended = text('run.summary.ended', { ...counts, outcomes: outcomes.join(', ') });
  }
  const inFlight: string[] = [];
  if (counts.running) inFlight.push(text('run.running', counts));
  if (counts.pending) inFlight.push(text('run.pending', counts));
  return inFlight.length ? `${inFlight.join(', ')} · ${ended}` : ended;
}
