import type { AskAnswer, AskSchema } from '../ask/ask.js';
import type { LogEntry } from '../context/log-entry.js';
import type { ErrorInfo } from '../errors.js';

/**
 * The fixed catalogue of event types and the data each carries. Types outside `custom.` must be
 * listed here; the keys each requires are checked when the event is made.
 */
export interface EventDataMap {
  'run.started': { phase: string; sessionId?: string };
  'run.finished': { status: 'ended' | 'aborted'; calls: number };
  'tool.started': { tool: string; timeoutMs?: number };
  'tool.progress': { tool: string; payload: unknown; n: number };
  'tool.report_rejected': { tool: string; reason: string };
  'tool.log': LogEntry;
  'tool.finished': { tool: string; durationMs: number; spilled?: boolean };
  'tool.failed': { tool: string; durationMs: number; error: ErrorInfo };
  'tool.retry': { tool: string; attempt: number; delayMs: number; error: ErrorInfo };
  'tool.cached': { tool: string };
  'tool.pending': { tool: string; reason: 'approval' | 'authorization'; id: string };
  'approval.requested': { tool: string; approvalId: string };
  'approval.decided': { tool: string; approvalId: string; approved: boolean };
  'ask.requested': {
    tool: string;
    askId: string;
    message: string;
    /** A form ask's fields. A URL ask's page is not here: only those who may answer read it. */
    schema?: AskSchema;
    expiresAt: number;
  };
  'ask.answered': { tool: string; askId: string; action: AskAnswer['action'] };
  'credential.requested': { tool: string; credential: string };
  'credential.acquired': { tool: string; credential: string };
  'credential.failed': { tool: string; credential: string; reason: string };
  'artifact.put': { ref: string; kind: string; bytes: number };
  'artifact.resolved': { ref: string; arg: string };
  'artifact.refused': { arg: string; reason: string };
  'artifact.deleted': { ref: string };
  'teardown.fired': { scope: string; count: number };
  'teardown.failed': { scope: string; tool: string; error: ErrorInfo };
  'budget.warning': { spentUsd: number; maxUsd: number };
  'budget.exceeded': { spentUsd: number; maxUsd: number };
  'output.spilled': { tool: string; bytes: number; keptBytes: number; ref?: string };
  'policy.refused': { tool: string; reason: string };
}

/** A type from the fixed catalogue. */
export type CatalogueEventType = keyof EventDataMap;

/** Any event type: one of the catalogue, or `custom.<name>` from `ctx.emit`. */
export type EventType = CatalogueEventType | `custom.${string}`;

/** The data an event of type `T` carries. */
export type EventData<T extends EventType> = T extends CatalogueEventType ? EventDataMap[T] : unknown;

/**
 * One entry of a run's ordered record. `seq` grows by exactly one per run, so a remote reader can
 * resume after the last `seq` it saw.
 */
export interface ToolEvent<T extends EventType = EventType> {
  type: T;
  seq: number;
  runId?: string;
  callId?: string;
  parentId?: string;
  ts: number;
  data: EventData<T>;
}

/** The data keys each catalogue type must carry. */
export const eventCatalogue: { readonly [T in CatalogueEventType]: readonly (keyof EventDataMap[T])[] } = {
  'run.started': ['phase'],
  'run.finished': ['status', 'calls'],
  'tool.started': ['tool'],
  'tool.progress': ['tool', 'payload', 'n'],
  'tool.report_rejected': ['tool', 'reason'],
  'tool.log': ['tool', 'level', 'message'],
  'tool.finished': ['tool', 'durationMs'],
  'tool.failed': ['tool', 'durationMs', 'error'],
  'tool.retry': ['tool', 'attempt', 'delayMs', 'error'],
  'tool.cached': ['tool'],
  'tool.pending': ['tool', 'reason', 'id'],
  'approval.requested': ['tool', 'approvalId'],
  'approval.decided': ['tool', 'approvalId', 'approved'],
  'ask.requested': ['tool', 'askId', 'message', 'expiresAt'],
  'ask.answered': ['tool', 'askId', 'action'],
  'credential.requested': ['tool', 'credential'],
  'credential.acquired': ['tool', 'credential'],
  'credential.failed': ['tool', 'credential', 'reason'],
  'artifact.put': ['ref', 'kind', 'bytes'],
  'artifact.resolved': ['ref', 'arg'],
  'artifact.refused': ['arg', 'reason'],
  'artifact.deleted': ['ref'],
  'teardown.fired': ['scope', 'count'],
  'teardown.failed': ['scope', 'tool', 'error'],
  'budget.warning': ['spentUsd', 'maxUsd'],
  'budget.exceeded': ['spentUsd', 'maxUsd'],
  'output.spilled': ['tool', 'bytes', 'keptBytes'],
  'policy.refused': ['tool', 'reason'],
};

const customPrefix = 'custom.';

/**
 * The grammar of a custom event's name, the part after `custom.`: 1 to 64 characters of lowercase
 * ASCII letters, digits, `_`, `.` and `-`, the first a letter or digit — the catalogue's own
 * spelling. A name reaches SSE `event:` lines, status templates and log queries, so no line break,
 * space, colon or markup gets in.
 */
const customEventName = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

/** Why `name` (after `custom.`) is not a custom event name, or `undefined` when it is one. */
export function customNameProblem(name: string): string | undefined {
  if (customEventName.test(name)) return undefined;
  const shown = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
  return `${shown} is not an event name: use 1 to 64 of a-z, 0-9, "_", "." and "-", the first a letter or digit (${customEventName.source})`;
}

/**
 * Throws unless `type` is in the catalogue (or `custom.<name>`, the name as `ctx.emit` documents)
 * and `data` has every key the catalogue requires for it. Every event passes here as it is made, so
 * no type that would break an SSE frame gets into a log.
 *
 * @example
 * ```ts
 * import { checkEvent } from '@toolctx/core';
 * checkEvent('tool.started', { tool: 'search' }); // fine
 * checkEvent('tool.started', {}); // throws: tool.started needs data.tool
 * checkEvent('custom.step\ndata: x', {}); // throws: not an event name
 * ```
 */
export function checkEvent(type: string, data: unknown): void {
  if (type.startsWith(customPrefix)) {
    if (type.length === customPrefix.length)
      throw new TypeError('A custom event needs a name: custom.<name>.');
    const problem = customNameProblem(type.slice(customPrefix.length));
    if (problem) throw new TypeError(`A custom event's type is custom.<name>; ${problem}.`);
    return;
  }
  const required = (eventCatalogue as Record<string, readonly string[] | undefined>)[type];
  if (!required) {
    throw new TypeError(
      `Unknown event type "${type}": use one of the catalogue or ctx.emit for custom.<name>.`,
    );
  }
  if (required.length === 0) return;
  if (typeof data !== 'object' || data === null) throw new TypeError(`${type} needs a data object.`);
  for (const key of required) {
    if (!(key in data)) throw new TypeError(`${type} needs data.${key}.`);
  }
}
