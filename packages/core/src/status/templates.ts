/**
 * The values a template can use, as `{name}`. Numbers are formatted for the model's `locale`;
 * durations arrive already formatted. `tool` is absent in run-level and widget templates.
 */
export interface TemplateValues {
  tool?: string;
  message?: string;
  count?: number;
  done?: number;
  total?: number;
  error?: string;
  /** Why a call waits, in words from the `reason.<why>` templates. */
  reason?: string;
  /** Calls in flight (running or waiting), failed and cancelled, for the run line. */
  running?: number;
  failed?: number;
  cancelled?: number;
  /** How long a call has run, how long it has been silent, how long until its timeout. */
  elapsed?: string;
  silence?: string;
  remaining?: string;
}

/** A template: text with `{name}` placeholders (see `TemplateValues`), or a function. */
export type Template = string | ((values: TemplateValues) => string);

/**
 * Status templates by key. Lookup for a call climbs a ladder from the most to the least particular
 * key; for progress: `tool.<name>.progress` → `tool.progress` → `tool.<name>` → `tool`, and for a
 * report without a message the same keys with `.generic` appended. Other moments use `started`,
 * `pending`, `done`, `failed` and `cancelled` in place of `progress`. The other keys
 * (`reason.*`, `call.*`, `run.*`, `finished.*`) are the words around the lines.
 */
export type Templates = Record<string, Template>;

/** The English templates every status model starts from; every key a language pack translates. */
export const defaultTemplates: Readonly<Templates> = Object.freeze({
  tool: '`{tool}` is working…',
  'tool.generic': '`{tool}` is working…',
  'tool.started': '`{tool}` started…',
  'tool.progress': '{message}',
  'tool.progress.generic': '`{tool}` reported progress ({count} so far)…',
  'tool.done': '`{tool}` done',
  'tool.failed': '`{tool}` failed: {error}',
  'tool.cancelled': '`{tool}` cancelled',
  'tool.pending': '`{tool}` is waiting for {reason}…',
  'reason.approval': 'approval',
  'reason.authorization': 'authorization',
  'call.elapsed': '{elapsed}',
  'call.stalled': 'no report for {silence}',
  'call.timeout': 'times out in {remaining}',
  'run.summary': '{done} of {total} done',
  'run.summary.failed': '{done} of {total} done, {failed} failed',
  'run.summary.running': '{running} running · {done} of {total} done',
  'run.summary.running.failed': '{running} running · {done} of {total} done, {failed} failed',
  'finished.toggle': '{count} finished',
  'finished.toggle.failed': '{count} finished, {failed} failed',
});

/** The moments of a call that have templates. */
export type Moment = 'started' | 'progress' | 'pending' | 'done' | 'failed' | 'cancelled';

/** Finds the template for `moment` of `tool` by the fallback ladder. */
export function pickTemplate(templates: Templates, tool: string, moment: Moment, generic: boolean): Template {
  const suffix = generic ? '.generic' : '';
  return (
    templates[`tool.${tool}.${moment}${suffix}`] ??
    templates[`tool.${moment}${suffix}`] ??
    templates[`tool.${tool}${suffix}`] ??
    templates[`tool${suffix}`] ??
    defaultTemplates[`tool.${moment}${suffix}`] ??
    defaultTemplates[`tool${suffix}`] ??
    defaultTemplates.tool!
  );
}

/**
 * Fills `{name}` placeholders; unknown names are left as written. Numbers go through `formatNumber`
 * (the model passes one for its locale).
 */
export function fillTemplate(
  template: Template,
  values: TemplateValues,
  formatNumber: (value: number) => string = String,
): string {
  if (typeof template === 'function') return template(values);
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name as keyof TemplateValues];
    if (value === undefined) return whole;
    return typeof value === 'number' ? formatNumber(value) : value;
  });
}
