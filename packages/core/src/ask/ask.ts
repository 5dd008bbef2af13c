// What a tool may ask its user mid-call (`ctx.ask`), and what it gets back. The schema is what an
// MCP elicitation form carries (2025-11-25's `requestedSchema`): flat fields of primitive types,
// so every door can show it — an MCP client's form, the status widget's, a plain HTTP client's.
import type { ErrorInfo } from '../errors.js';

/** What every field may carry besides its type. */
interface AskFieldBase {
  /** The label a form shows; the field's name when absent. */
  title?: string;
  /** A line of help under the field. */
  description?: string;
}

/**
 * A line of text, optionally in a format a form can check (`email`, `uri`, `date`, `date-time`).
 *
 * @experimental The ask API may still change.
 */
export interface AskTextField extends AskFieldBase {
  type: 'string';
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  default?: string;
}

/**
 * A number; `integer` takes whole numbers only.
 *
 * @experimental The ask API may still change.
 */
export interface AskNumberField extends AskFieldBase {
  type: 'number' | 'integer';
  minimum?: number;
  maximum?: number;
  default?: number;
}

/**
 * A yes-or-no box.
 *
 * @experimental The ask API may still change.
 */
export interface AskBooleanField extends AskFieldBase {
  type: 'boolean';
  default?: boolean;
}

/**
 * One of a list of strings: `enum` (shown as they are, or with `enumNames`), or `oneOf` with a
 * title for each value.
 *
 * @experimental The ask API may still change.
 */
export interface AskChoiceField extends AskFieldBase {
  type: 'string';
  enum?: string[];
  /** Titles for `enum`'s values, in the same order (MCP's legacy form). */
  enumNames?: string[];
  oneOf?: { const: string; title: string }[];
  default?: string;
}

/**
 * Any number of a list of strings: `items.enum`, or `items.anyOf` with a title for each value.
 *
 * @experimental The ask API may still change.
 */
export interface AskMultiChoiceField extends AskFieldBase {
  type: 'array';
  items: { type: 'string'; enum: string[] } | { anyOf: { const: string; title: string }[] };
  minItems?: number;
  maxItems?: number;
  default?: string[];
}

/**
 * One field of an ask's form.
 *
 * @experimental The ask API may still change.
 */
export type AskField = AskTextField | AskNumberField | AskBooleanField | AskChoiceField | AskMultiChoiceField;

/**
 * The form an ask shows: named fields and which of them must be filled in. At most 100 fields;
 * a field's name is 1 to 64 characters of letters, digits, `_`, `-` and `.`.
 *
 * @experimental The ask API may still change.
 */
export interface AskSchema {
  type: 'object';
  properties: Record<string, AskField>;
  required?: string[];
}

/**
 * A value a form gives back: text, a number, a box's state, or the strings chosen of a list.
 *
 * @experimental The ask API may still change.
 */
export type AskValue = string | number | boolean | string[];

/** What an ask may carry besides its question. */
interface AskBase {
  /** What the person reads: why the tool asks, in a sentence or two (at most 4,000 characters). */
  message: string;
  /**
   * How long the person has to answer, in ms (default 600,000: ten minutes; at most a day). The
   * tool's own `timeoutMs` does not run while it waits; when the window passes, the ask answers
   * `{ action: 'cancel' }`.
   */
  windowMs?: number;
  /**
   * Names the ask among the call's asks: its answer is kept under it, so a call run again gets it
   * back, and a door that answers asks by name (MCP 2026's `inputResponses`) answers it under it.
   * 1 to 64 of letters, digits, `_`, `.` and `-`, starting with a letter or `_`; unique within the
   * call. Default: `"0"`, `"1"`, … in the order the tool asks without one.
   */
  key?: string;
}

/**
 * An ask with a form: the person fills in `schema`'s fields.
 *
 * @experimental The ask API may still change.
 */
export interface AskForm extends AskBase {
  schema: AskSchema;
}

/**
 * An ask that sends the person to a page (a sign-in, a payment) rather than a form: sensitive
 * input never goes through a form. `accept` says only that they finished there; what they
 * entered reaches the tool's own server, not this call.
 *
 * @experimental The ask API may still change.
 */
export interface AskUrl extends AskBase {
  /** An `https:` address (`http:` only for localhost). */
  url: string;
}

/**
 * What a tool asks: a form or a page.
 *
 * @experimental The ask API may still change.
 */
export type AskRequest = AskForm | AskUrl;

/**
 * The person's answer. `accept` carries the form's values, checked against its schema before the
 * tool sees them (none for a URL ask); `decline` is a no; `cancel` is no answer (dismissed, the
 * window passed, or nobody could be asked).
 *
 * @experimental The ask API may still change.
 */
export type AskAnswer =
  | { action: 'accept'; values?: Record<string, AskValue> }
  | { action: 'decline' }
  | { action: 'cancel' };

/**
 * The answer to a form ask: `values` is there whenever the person accepted.
 *
 * @experimental The ask API may still change.
 */
export type AskFormAnswer =
  | { action: 'accept'; values: Record<string, AskValue> }
  | { action: 'decline' }
  | { action: 'cancel' };

/**
 * An ask waiting for its answer, as the run lists it (`run.asks()`) and a call's handle shows it.
 * Plain data.
 *
 * @experimental The ask API may still change.
 */
export interface OpenAsk {
  /** What `run.answer(askId, …)` (`POST /runs/:runId/asks/:askId`) names it by. */
  askId: string;
  toolCallId: string;
  tool: string;
  /** Its name among the call's asks (see `key` of an ask; `credential:<name>` for a sign-in). */
  key: string;
  message: string;
  /** A form ask's fields. */
  schema?: AskSchema;
  /** A URL ask's page. */
  url?: string;
  /** When it was asked, ms since the epoch. */
  askedAt: number;
  /** When its window closes and it answers `cancel`, ms since the epoch. */
  expiresAt: number;
}

/**
 * Why `run.answer` did not take an answer.
 *
 * @experimental The ask API may still change.
 */
export type AnswerRefusal = 'unknown' | 'invalid';

/**
 * What `run.answer` says: taken (the call goes on with it), or not — `unknown` (no open ask by
 * that id: answered already, withdrawn, or another run's) or `invalid` (the answer does not fit
 * the ask; it stays open for a corrected one), with the error to show.
 *
 * @experimental The ask API may still change.
 */
export type Answered =
  | { taken: true; toolCallId: string }
  | { taken: false; reason: AnswerRefusal; error: ErrorInfo };

/**
 * How a door without runs puts a call's question to its user (MCP's `elicitation/create`):
 * `runtime.callOnce({ askUser })`. It answers, or rejects when `signal` fires (the call was
 * cancelled, or the ask's window passed). The answer is checked against the ask after.
 *
 * @experimental The ask API may still change.
 */
export type AskUser = (ask: OpenAsk, signal: AbortSignal) => Promise<AskAnswer>;
