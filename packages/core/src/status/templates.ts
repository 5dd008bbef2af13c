import type { StatusPart } from './status-line.js';

/**
 * The values a template can use, as `{name}`. Numbers are formatted for the model's `locale`;
 * durations arrive already formatted. `tool` is absent in run-level and widget templates; in a
 * call's template it becomes a `code` part.
 */
export interface TemplateValues {
  tool?: string;
  message?: string;
  count?: number;
  done?: number;
  total?: number;
  /** A failure's `ErrorInfo.message`: written for a model, so no default template shows it. */
  error?: string;
  /** Why a call waits, in words from the `reason.<why>` templates; or why a person denied it. */
  reason?: string;
  /** The tool's timeout, formatted, in `tool.failed.timeout`. */
  timeout?: string;
  /** Calls running, waiting for a person, failed and cancelled, for the run line. */
  running?: number;
  pending?: number;
  failed?: number;
  cancelled?: number;
  /** The ended calls by outcome (`3 done, 1 failed`), in `run.summary.ended`. */
  outcomes?: string;
  /** How long a call has run, how long it has been silent, how long until its timeout. */
  elapsed?: string;
  silence?: string;
  remaining?: string;
}

/**
 * A template: text with `{name}` placeholders (see `TemplateValues`), or a function giving text or
 * parts (a `code` part is styled as code by a renderer).
 */
export type Template = string | ((values: TemplateValues) => string | readonly StatusPart[]);

/**
 * Status templates by key. Lookup for a call climbs a ladder from the most to the least particular
 * key; for progress: `tool.<name>.progress` → `tool.progress` → `tool.<name>` → `tool`, and for a
 * report without a message the same keys with `.generic` appended. Other moments use `started`,
 * `pending`, `asking` (a call waiting for its user's answer, with the ask's `{message}`), `done`,
 * `failed` and `cancelled` in place of `progress`. A failure first tries its
 * error kind, `tool.<name>.failed.<kind>` → `tool.failed.<kind>`, then the ladder of `failed`;
 * a kind whose particular value is missing (a denial without a reason, a timeout not known) tries
 * those two keys with `.generic` appended. The other keys (`reason.*`, `call.*`, `run.*`,
 * `finished.*`) are the words around the lines.
 */
export type Templates = Record<string, Template>;

/** The English templates every status model starts from; every key a language pack translates. */
export const defaultTemplates: Readonly<Templates> = Object.freeze({
  tool: '{tool} is working…',
  'tool.generic': '{tool} is working…',
  'tool.started': '{tool} started…',
  'tool.progress': '{message}',
  'tool.progress.generic': '{tool} reported progress ({count} so far)…',
  'tool.done': '{tool} done',
  'tool.failed': '{tool} failed',
  'tool.failed.timeout': '{tool} took too long ({timeout})',
  'tool.failed.timeout.generic': '{tool} took too long',
  'tool.failed.approval-denied': '{tool} not approved — {reason}',
  'tool.failed.approval-denied.generic': '{tool} not approved',
  'tool.failed.policy-refused': '{tool} is not allowed here',
  'tool.failed.door-lost': '{tool} stopped: its worker is gone',
  'tool.failed.interrupted': '{tool} was cut off by a restart',
  'tool.cancelled': '{tool} cancelled',
  'tool.pending': '{tool} is waiting for {reason}…',
  'tool.asking': '{tool} asks: {message}',
  'tool.asking.generic': '{tool} is waiting for an answer…',
  'reason.approval': 'approval',
  'reason.authorization': 'authorization',
  'call.elapsed': '{elapsed}',
  'call.stalled': 'no report for {silence}',
  'call.timeout': 'times out in {remaining}',
  'run.summary': '{done} of {total} done',
  'run.summary.ended': '{outcomes} of {total}',
  'run.done': '{done} done',
  'run.failed': '{failed} failed',
  'run.cancelled': '{cancelled} cancelled',
  'run.running': '{running} running',
  'run.pending': '{pending} waiting',
  'finished.toggle': '{count} finished',
  'finished.toggle.failed': '{count} finished, {failed} failed',
});

/** The moments of a call that have templates. */
export type Moment = 'started' | 'progress' | 'pending' | 'asking' | 'done' | 'failed' | 'cancelled';

/**
 * Finds the template for `moment` of `tool` by the fallback ladder; `kind` is a failure's error
 * kind, and `generic` says the moment (or the kind) lacks its particular value.
 */
export function pickTemplate(
  templates: Templates,
  tool: string,
  moment: Moment,
  generic: boolean,
  kind?: string,
): Template {
  const own = kind ? `failed.${kind}${generic ? '.generic' : ''}` : '';
  const suffix = generic && !kind ? '.generic' : '';
  return (
    (own ? (templates[`tool.${tool}.${own}`] ?? templates[`tool.${own}`]) : undefined) ??
    templates[`tool.${tool}.${moment}${suffix}`] ??
    templates[`tool.${moment}${suffix}`] ??
    templates[`tool.${tool}${suffix}`] ??
    templates[`tool${suffix}`] ??
    (own ? defaultTemplates[`tool.${own}`] : undefined) ??
    defaultTemplates[`tool.${moment}${suffix}`] ??
    defaultTemplates[`tool${suffix}`] ??
    defaultTemplates.tool!
  );
}

/**
 * Fills `{name}` placeholders into parts: `{tool}` as a `code` part, the rest as text; unknown
 * names are left as written. Numbers go through `formatNumber` (the model passes one for its locale).
 */
export function fillParts(
  template: Template,
  values: TemplateValues,
  formatNumber: (value: number) => string = String,
): readonly StatusPart[] {
  if (typeof template === 'function') {
    const made = template(values);
    return typeof made === 'string' ? [{ type: 'text', text: made }] : made;
  }
  const parts: StatusPart[] = [];
  let text = '';
  let from = 0;
  for (const match of template.matchAll(/\{(\w+)\}/g)) {
    text += template.slice(from, match.index);
    from = match.index + match[0].length;
    const name = match[1] as keyof TemplateValues;
    const value = values[name];
    if (name === 'tool' && typeof value === 'string') {
      if (text) parts.push({ type: 'text', text });
      parts.push({ type: 'code', text: value });
      text = '';
    } else if (value === undefined) text += match[0];
    else text += typeof value === 'number' ? formatNumber(value) : value;
  }
  text += template.slice(from);
  if (text || !parts.length) parts.push({ type: 'text', text });
  return parts;
}

/** The parts as one plain string. */
export function joinParts(parts: readonly StatusPart[]): string {
  return parts.length === 1 ? parts[0]!.text : parts.map((part) => part.text).join('');
}

/** Fills a template into one plain string (see `fillParts`). */
export function fillTemplate(
  template: Template,
  values: TemplateValues,
  formatNumber: (value: number) => string = String,
): string {
  return joinParts(fillParts(template, values, formatNumber));
}
