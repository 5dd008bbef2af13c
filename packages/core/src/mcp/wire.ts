import type { LogEntry } from '../context/log-entry.js';
import type { ErrorInfo } from '../errors.js';
import { plainJson } from '../plain-json.js';

/**
 * Where a failed call's `ErrorInfo` travels in an MCP `isError` result: in `_meta` under this key
 * (the machine channel) and as `structuredContent.error` (what generic MCP clients show).
 */
export const errorMetaKey = 'toolctx/error';

/**
 * The MCP progress fields for a toolctx progress report; `n` is the report's number in its call.
 * `progress` is the report's `done` when it has one, else `n`.
 */
export function toMcpProgress(
  payload: unknown,
  n: number,
): { progress: number; total?: number; message?: string } {
  if (typeof payload === 'string') return { progress: n, message: payload };
  if (typeof payload !== 'object' || payload === null) return { progress: n };
  const { message, done, total } = payload as Record<string, unknown>;
  return {
    progress: isCount(done) ? done : n,
    ...(isCount(total) ? { total } : {}),
    ...(typeof message === 'string' ? { message } : {}),
  };
}

/**
 * Numbers one call's progress notifications so `progress` only ever increases, as MCP requires
 * of each token. Once the tool has counted (`done`), a report that does not move its count
 * forward (a `done` that went back, a report without one) is sent a millionth above the last, so
 * its message still arrives and a client's bar stays where it was.
 */
export function mcpProgressOf(): (payload: unknown, n: number) => ReturnType<typeof toMcpProgress> {
  let last = Number.NEGATIVE_INFINITY;
  let counted = false;
  return (payload, n) => {
    const params = toMcpProgress(payload, n);
    const counts = isCount((payload as { done?: unknown } | null)?.done);
    counted ||= counts;
    if (params.progress <= last || (counted && !counts))
      params.progress = last + Math.max(1e-6, Math.abs(last) * 2 ** -40);
    last = params.progress;
    return params;
  };
}

/**
 * The `notifications/message` params for a `tool.log` entry: the tool is the logger, and the data
 * is the message alone, or `{ message, data }` when the entry carries data. The data is made JSON
 * as every door writes event data (`plainJson`: a bigint as its digits, a Map as an object, a Set
 * as an array, a cycle as `"[cycle]"`): plain data that JSON cannot write would otherwise lose the
 * whole notification.
 */
export function toMcpLogMessage(entry: LogEntry): {
  level: LogEntry['level'];
  logger: string;
  data: unknown;
} {
  const alone = { level: entry.level, logger: entry.tool, data: entry.message };
  if (entry.data === undefined) return alone;
  return { ...alone, data: { message: entry.message, data: JSON.parse(plainJson(entry.data)) } };
}

/** The toolctx progress report for an MCP progress notification. */
export function fromMcpProgress(progress: { progress: number; total?: number; message?: string }): {
  message?: string;
  done: number;
  total?: number;
} {
  return {
    ...(typeof progress.message === 'string' ? { message: progress.message } : {}),
    done: progress.progress,
    ...(isCount(progress.total) ? { total: progress.total } : {}),
  };
}

/** The `ErrorInfo` a remote toolctx server put in an `isError` result, if it looks like one. */
export function remoteErrorInfo(result: {
  _meta?: Record<string, unknown>;
  structuredContent?: unknown;
}): ErrorInfo | undefined {
  const structured = result.structuredContent as { error?: unknown } | null | undefined;
  const candidate = result._meta?.[errorMetaKey] ?? structured?.error;
  if (typeof candidate !== 'object' || candidate === null) return undefined;
  const { kind, message, retryable } = candidate as Record<string, unknown>;
  if (typeof kind !== 'string' || typeof message !== 'string') return undefined;
  return { ...(candidate as ErrorInfo), retryable: retryable === true };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
