/** The states a call's line can be in. */
export type LineState = 'running' | 'pending' | 'done' | 'failed' | 'cancelled';

/** The values a template can use, as `{name}`. */
export interface TemplateValues {
  tool: string;
  message?: string;
  count?: number;
  done?: number;
  total?: number;
  error?: string;
  /** Why a call waits: `approval` or `authorization`. */
  reason?: string;
}

/** A template: text with `{tool}`, `{message}`, `{count}`, `{done}`, `{total}`, `{error}`, `{reason}`, or a function. */
export type Template = string | ((values: TemplateValues) => string);

/**
 * Status templates by key. Lookup climbs a ladder from the most to the least particular key; for
 * progress: `tool.<name>.progress` → `tool.progress` → `tool.<name>` → `tool`, and for a report
 * without a message the same keys with `.generic` appended. Other moments use `started`, `pending`,
 * `done`, `failed` and `cancelled` in place of `progress`.
 */
export type Templates = Record<string, Template>;

/** The English templates every status model starts from. */
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

/** Fills `{name}` placeholders; unknown names are left as written. */
export function fillTemplate(template: Template, values: TemplateValues): string {
  if (typeof template === 'function') return template(values);
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name as keyof TemplateValues];
    return value === undefined ? whole : String(value);
  });
}
