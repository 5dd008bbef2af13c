// Loaded on a call's first ask, and by `run.answer`: most calls never ask.
import { type ErrorInfo, ToolctxError } from '../errors.js';
import type { AskAnswer, AskField, AskRequest, AskSchema, AskTextField, AskValue } from './ask.js';

/** The bounds of an ask, so that a form fits any door and an answer stays small. */
export const askLimits = {
  fields: 100,
  fieldName: 64,
  message: 4000,
  /** Options of one choice field. */
  options: 500,
  /** Characters of a text value (a field's own `maxLength` may be lower). */
  text: 10_000,
  /** Characters of a title or description. */
  label: 1000,
  /** Characters of the whole form as JSON: what an ask adds to the run's log and storage. */
  schema: 65_536,
  windowMs: 86_400_000,
  defaultWindowMs: 600_000,
} as const;

/** An ask that passed its checks, with its window settled. */
export type CheckedAsk = AskRequest & { windowMs: number };

const fieldName = /^[A-Za-z0-9_.-]{1,64}$/;
// A letter or `_` first, so a tool's own key never meets the default keys "0", "1", ….
const askKey = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const formats = new Set(['email', 'uri', 'date', 'date-time']);

/**
 * The ask as the tool gave it, checked: a form whose every field a form can show, or a page's
 * address. Throws an `invalid-argument` ToolctxError naming each problem (the tool's to fix).
 */
export function checkAsk(toolName: string, request: AskRequest): CheckedAsk {
  const problems: string[] = [];
  const given = request as unknown as Record<string, unknown> | null;
  if (typeof given !== 'object' || given === null) problems.push('the ask must be an object');
  else {
    const { message, windowMs, key } = given;
    if (key !== undefined && !(typeof key === 'string' && askKey.test(key)))
      problems.push(
        '"key" must be 1 to 64 of letters, digits, "_", "." and "-", starting with a letter or "_"',
      );
    if (typeof message !== 'string' || message.trim() === '')
      problems.push('"message" must be a non-empty string');
    else if (message.length > askLimits.message)
      problems.push(`"message" is longer than ${askLimits.message} characters`);
    if (
      windowMs !== undefined &&
      !(
        Number.isSafeInteger(windowMs) &&
        (windowMs as number) > 0 &&
        (windowMs as number) <= askLimits.windowMs
      )
    )
      problems.push(`"windowMs" must be a whole number of ms from 1 to ${askLimits.windowMs}`);
    const hasUrl = 'url' in given;
    const hasSchema = 'schema' in given;
    if (hasUrl === hasSchema)
      problems.push('give either "schema" (a form) or "url" (a page), not both or neither');
    else if (hasUrl) urlProblems(given.url, problems);
    else {
      schemaProblems(given.schema, problems);
      if (problems.length === 0) sizeProblems(given.schema, problems);
    }
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).join('; ');
    const more = problems.length > 5 ? ` (+${problems.length - 5} more)` : '';
    throw new ToolctxError(
      'invalid-argument',
      `"${toolName}" asked with a form no door can show: ${shown}${more}. Use flat string, number, integer, boolean and enum fields.`,
      { details: { problems: problems.slice(0, 20) } },
    );
  }
  return { ...request, windowMs: request.windowMs ?? askLimits.defaultWindowMs };
}

function urlProblems(url: unknown, problems: string[]): void {
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  const local = parsed && ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  if (!parsed || !(parsed.protocol === 'https:' || (parsed.protocol === 'http:' && local)))
    problems.push('"url" must be an https: address (http: only for localhost)');
}

function schemaProblems(schema: unknown, problems: string[]): void {
  const form = schema as AskSchema | null;
  if (typeof form !== 'object' || form === null || form.type !== 'object') {
    problems.push('"schema" must be { type: "object", properties: { … } }');
    return;
  }
  const properties = form.properties;
  if (typeof properties !== 'object' || properties === null) {
    problems.push('"schema.properties" must be an object of fields');
    return;
  }
  const names = Object.keys(properties);
  if (names.length === 0)
    problems.push('"schema.properties" has no fields: use a URL ask, or ask for something');
  if (names.length > askLimits.fields) {
    problems.push(`"schema" has ${names.length} fields; a form has at most ${askLimits.fields}`);
    return;
  }
  for (const name of names) {
    if (!fieldName.test(name))
      problems.push(
        `field ${JSON.stringify(name.slice(0, 80))} needs a name of 1 to 64 letters, digits, "_", "-" or "."`,
      );
    fieldProblems(name, properties[name], problems);
  }
  const required = form.required;
  if (required !== undefined) {
    if (!Array.isArray(required)) problems.push('"schema.required" must be a list of field names');
    else
      for (const name of required)
        if (typeof name !== 'string' || !Object.hasOwn(properties, name))
          problems.push(`"schema.required" names ${JSON.stringify(name)}, which is not a field`);
  }
}

/** A form within its size, written as JSON (it is kept with the call and sent in its events). */
function sizeProblems(schema: unknown, problems: string[]): void {
  let chars: number;
  try {
    chars = JSON.stringify(schema).length;
  } catch {
    problems.push('"schema" cannot be written as JSON (a cycle, or nested too deep): give plain data');
    return;
  }
  if (chars > askLimits.schema)
    problems.push(`"schema" is ${chars} characters as JSON; a form is at most ${askLimits.schema}`);
}

function fieldProblems(name: string, field: unknown, problems: string[]): void {
  const at = `field "${name}"`;
  if (typeof field !== 'object' || field === null) {
    problems.push(`${at} must be an object with a type`);
    return;
  }
  const f = field as Record<string, unknown>;
  for (const key of ['title', 'description'])
    if (f[key] !== undefined && !(typeof f[key] === 'string' && f[key].length <= askLimits.label))
      problems.push(`${at}: "${key}" must be a string of at most ${askLimits.label} characters`);
  const choices = options(f);
  switch (f.type) {
    case 'string':
      if (choices === null)
        problems.push(`${at}: "enum" or "oneOf" must be a list of 1 to ${askLimits.options} strings`);
      else if (choices) {
        if (
          f.enumNames !== undefined &&
          !(Array.isArray(f.enumNames) && f.enumNames.length === choices.length)
        )
          problems.push(`${at}: "enumNames" must name each of "enum"'s values`);
      } else {
        for (const key of ['minLength', 'maxLength'])
          if (f[key] !== undefined && !(Number.isSafeInteger(f[key]) && (f[key] as number) >= 0))
            problems.push(`${at}: "${key}" must be a whole number`);
        if (f.format !== undefined && !formats.has(f.format as string))
          problems.push(`${at}: "format" must be one of email, uri, date, date-time`);
      }
      break;
    case 'number':
    case 'integer':
      for (const key of ['minimum', 'maximum'])
        if (f[key] !== undefined && !Number.isFinite(f[key]))
          problems.push(`${at}: "${key}" must be a number`);
      break;
    case 'boolean':
      break;
    case 'array':
      if (!choices)
        problems.push(`${at}: "items" must be { type: "string", enum: [...] } or { anyOf: [...] }`);
      for (const key of ['minItems', 'maxItems'])
        if (f[key] !== undefined && !(Number.isSafeInteger(f[key]) && (f[key] as number) >= 0))
          problems.push(`${at}: "${key}" must be a whole number`);
      break;
    default:
      problems.push(`${at}: "type" must be string, number, integer, boolean or array (of choices)`);
      return;
  }
  if (f.default !== undefined && valueProblem(field as AskField, f.default as AskValue))
    problems.push(`${at}: "default" does not fit the field`);
}

/** A choice field's values: the list, `undefined` for a field with none, `null` for a broken list. */
function options(field: Record<string, unknown>): string[] | undefined | null {
  const source = field.type === 'array' ? (field.items as Record<string, unknown> | undefined) : field;
  if (typeof source !== 'object' || source === null) return field.type === 'array' ? null : undefined;
  const list = source.enum ?? source.oneOf ?? source.anyOf;
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || list.length === 0 || list.length > askLimits.options) return null;
  const values = list.map((option) =>
    typeof option === 'string' ? option : (option as { const?: unknown } | null)?.const,
  );
  return values.every((value) => typeof value === 'string') ? (values as string[]) : null;
}

/** Why `value` does not fit `field`, or `undefined` when it does. */
function valueProblem(field: AskField, value: unknown): string | undefined {
  const f = field as unknown as Record<string, unknown>;
  const choices = options(f);
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return 'must be text';
      if (choices) return choices.includes(value) ? undefined : `must be one of ${list(choices)}`;
      return textProblem(field as AskTextField, value);
    }
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'array': {
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
        return 'must be a list of choices';
      if (choices && !value.every((item) => choices.includes(item))) return `may hold only ${list(choices)}`;
      if (new Set(value).size !== value.length) return 'lists a choice twice';
      if (field.minItems !== undefined && value.length < field.minItems)
        return `must hold at least ${field.minItems} choices`;
      if (field.maxItems !== undefined && value.length > field.maxItems)
        return `must hold at most ${field.maxItems} choices`;
      return undefined;
    }
  }
}

function textProblem(field: AskTextField, value: string): string | undefined {
  const max = Math.min(field.maxLength ?? askLimits.text, askLimits.text);
  if (value.length > max) return `must be at most ${max} characters`;
  if (field.minLength !== undefined && value.length < field.minLength)
    return `must be at least ${field.minLength} characters`;
  return field.format ? formatProblem(field.format, value) : undefined;
}

function formatProblem(format: string, value: string): string | undefined {
  if (format === 'email') return /^[^\s@]+@[^\s@]+$/.test(value) ? undefined : 'must be an email address';
  if (format === 'uri') return URL.canParse(value) ? undefined : 'must be an address (URI)';
  if (format === 'date') return /^\d{4}-\d{2}-\d{2}$/.test(value) ? undefined : 'must be a date (YYYY-MM-DD)';
  return Number.isNaN(Date.parse(value)) ? 'must be a date and time (ISO 8601)' : undefined;
}

const list = (choices: string[]) =>
  choices.length > 5
    ? `${choices
        .slice(0, 5)
        .map((c) => JSON.stringify(c))
        .join(', ')}, …`
    : choices.map((c) => JSON.stringify(c)).join(', ');

/**
 * The answer checked against its ask: its action, and for a form's `accept` its values — only the
 * form's fields, every required one there, each fitting its field. The answer copied with nothing
 * else on it, or the `invalid-argument` error that names every problem (the answerer's to fix).
 */
export function checkAnswer(
  ask: Pick<AskRequest, 'message'> & { schema?: AskSchema },
  answer: unknown,
): { ok: true; answer: AskAnswer } | { ok: false; error: ErrorInfo } {
  const given = answer as { action?: unknown; values?: unknown } | null;
  const action = typeof given === 'object' && given !== null ? given.action : undefined;
  if (action === 'decline' || action === 'cancel') return { ok: true, answer: { action } };
  if (action !== 'accept') return refused(['"action" must be "accept", "decline" or "cancel"']);
  if (!ask.schema) return { ok: true, answer: { action } };
  const values = given!.values;
  if (typeof values !== 'object' || values === null || Array.isArray(values))
    return refused(['"values" must be an object of the form\'s fields']);
  const problems: string[] = [];
  const { properties, required = [] } = ask.schema;
  const copy: Record<string, AskValue> = {};
  for (const [name, value] of Object.entries(values)) {
    const field = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (!field) {
      problems.push(`${JSON.stringify(name.slice(0, 80))} is not a field of the form`);
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem) problems.push(`"${name}" ${problem}`);
    else copy[name] = Array.isArray(value) ? [...value] : (value as AskValue);
  }
  for (const name of required) if (!Object.hasOwn(values, name)) problems.push(`"${name}" is required`);
  return problems.length > 0 ? refused(problems) : { ok: true, answer: { action, values: copy } };
}

function refused(problems: string[]): { ok: false; error: ErrorInfo } {
  const shown = problems.slice(0, 5).join('; ');
  const more = problems.length > 5 ? ` (+${problems.length - 5} more)` : '';
  return {
    ok: false,
    error: {
      kind: 'invalid-argument',
      message: `The answer does not fit the ask: ${shown}${more}.`,
      retryable: false,
      details: { problems: problems.slice(0, 20) },
    },
  };
}
