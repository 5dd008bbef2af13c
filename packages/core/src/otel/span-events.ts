// What each event of a call adds to its span: a span event with a few attributes. Only names,
// counts, ids and messages toolctx already treats as safe to show (ErrorInfo messages, log
// messages with the credential redacted, progress messages as the status line shows them);
// never `ctx.log` data, progress payloads beyond their message and numbers, arguments or results.
import type { Attributes } from '@opentelemetry/api';
import type { ToolEvent } from '../events/catalogue.js';
import { cutMessage } from '../status/grapheme-cut.js';

type Data = Record<string, unknown>;

/** A span event's name and attributes; `undefined` for an event that adds nothing to a span. */
type SpanEventOf = (data: Data) => Attributes;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** The attributes with the `undefined` ones left out (OpenTelemetry drops them with a warning). */
function defined(attributes: Record<string, string | number | boolean | undefined>): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}

function progress(data: Data): Attributes {
  const payload = (typeof data.payload === 'object' && data.payload !== null ? data.payload : {}) as Data;
  return defined({
    'toolctx.progress.n': num(data.n),
    'toolctx.progress.message': progressMessage(payload.message),
    'toolctx.progress.done': num(payload.done),
    'toolctx.progress.total': num(payload.total),
  });
}

/** A progress message as the status line shows it: trimmed, cut at 120 graphemes. */
function progressMessage(message: unknown): string | undefined {
  return typeof message === 'string' && message.trim() !== '' ? cutMessage(message.trim()) : undefined;
}

const errorType = (data: Data): string | undefined => text((data.error as Data | undefined)?.kind);

/** The span event each catalogue type of a call becomes. */
const spanEvents: Readonly<Record<string, SpanEventOf>> = {
  'tool.progress': progress,
  'tool.report_rejected': (data) => defined({ 'toolctx.reason': text(data.reason) }),
  'tool.log': (data) =>
    defined({ 'toolctx.log.level': text(data.level), 'toolctx.log.message': text(data.message) }),
  'tool.retry': (data) =>
    defined({
      'toolctx.retry.attempt': num(data.attempt),
      'toolctx.retry.delay_ms': num(data.delayMs),
      'error.type': errorType(data),
    }),
  'tool.cached': () => ({}),
  'approval.requested': (data) => defined({ 'toolctx.approval.id': text(data.approvalId) }),
  'approval.decided': (data) =>
    defined({
      'toolctx.approval.id': text(data.approvalId),
      'toolctx.approval.approved': data.approved === true,
    }),
  'credential.requested': (data) => defined({ 'toolctx.credential.name': text(data.credential) }),
  'credential.acquired': (data) => defined({ 'toolctx.credential.name': text(data.credential) }),
  'credential.failed': (data) =>
    defined({ 'toolctx.credential.name': text(data.credential), 'toolctx.reason': text(data.reason) }),
  'artifact.put': (data) =>
    defined({
      'toolctx.artifact.ref': text(data.ref),
      'toolctx.artifact.kind': text(data.kind),
      'toolctx.artifact.bytes': num(data.bytes),
    }),
  'artifact.resolved': (data) =>
    defined({ 'toolctx.artifact.ref': text(data.ref), 'toolctx.artifact.arg': text(data.arg) }),
  'artifact.refused': (data) =>
    defined({ 'toolctx.artifact.arg': text(data.arg), 'toolctx.reason': text(data.reason) }),
  'artifact.deleted': (data) => defined({ 'toolctx.artifact.ref': text(data.ref) }),
  'output.spilled': (data) =>
    defined({ 'toolctx.output.bytes': num(data.bytes), 'toolctx.output.kept_bytes': num(data.keptBytes) }),
  'policy.refused': (data) => defined({ 'toolctx.reason': text(data.reason) }),
  'budget.exceeded': (data) =>
    defined({ 'toolctx.budget.spent_usd': num(data.spentUsd), 'toolctx.budget.max_usd': num(data.maxUsd) }),
  'teardown.fired': (data) => defined({ 'toolctx.teardown.scope': text(data.scope) }),
  'teardown.failed': (data) =>
    defined({ 'toolctx.teardown.scope': text(data.scope), 'error.type': errorType(data) }),
};

/**
 * The span event `event` becomes on its call's span: named as the event type (`tool.progress`,
 * `approval.requested`, `custom.<name>` with no attributes: its data is the tool's own), or
 * `undefined` for the types that shape the span itself (start, end, pending).
 */
export function spanEventOf(event: ToolEvent): { name: string; attributes: Attributes } | undefined {
  const of = spanEvents[event.type];
  if (of) return { name: event.type, attributes: of(event.data as Data) };
  if (event.type.startsWith('custom.')) return { name: event.type, attributes: {} };
  return undefined;
}
