import { REDACTED } from '../credentials/credential.js';
import { cloneSafetyProblem } from '../progress/clone-safe.js';
import { cutMessage } from '../status/grapheme-cut.js';

/**
 * The severities of `ctx.log`, least to most severe: MCP's logging levels, which are the syslog
 * severities of RFC 5424.
 *
 * @example
 * ```ts
 * import { logLevels } from '@toolctx/core';
 * logLevels.indexOf('warning') > logLevels.indexOf('info'); // true
 * ```
 */
export const logLevels = Object.freeze([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const);

/** One of {@link logLevels}. */
export type LogLevel = (typeof logLevels)[number];

/** How many graphemes of a log message are kept; the cut is stated as `… (+N more)`. */
export const logMessageMax = 1_000;

/** The data of a `tool.log` event. */
export interface LogEntry {
  tool: string;
  level: LogLevel;
  message: string;
  data?: unknown;
}

/**
 * The `tool.log` data for a tool's `ctx.log` arguments, or why they are refused: a level outside
 * {@link logLevels}, a message that is not a string, or data that would not survive a structured
 * clone. `secret`, the value of the call's credential, is replaced by `[redacted]` wherever it
 * occurs in the message or in a string of the data.
 */
export function logEntry(
  tool: string,
  level: unknown,
  message: unknown,
  data: unknown,
  secret: string | undefined,
): LogEntry | { problem: string } {
  if (typeof level !== 'string' || !(logLevels as readonly string[]).includes(level)) {
    return {
      problem: `ctx.log's level ${JSON.stringify(String(level))} is not one of ${logLevels.join(', ')}.`,
    };
  }
  if (typeof message !== 'string') {
    return { problem: `ctx.log takes a string message second, not ${typeof message}.` };
  }
  const problem = cloneSafetyProblem(data);
  if (problem) return { problem: `ctx.log data holds ${problem}.` };
  const entry: LogEntry = {
    tool,
    level: level as LogLevel,
    message: cutMessage(redact(message, secret), logMessageMax),
  };
  if (data !== undefined) entry.data = secret ? redactData(data, secret, new Map()) : data;
  return entry;
}

function redact(text: string, secret: string | undefined): string {
  return secret && text.includes(secret) ? text.split(secret).join(REDACTED) : text;
}

/**
 * `data` with the secret redacted from its strings: plain objects and arrays are copied (a cycle
 * stays a cycle of copies), everything else is kept as it is.
 */
function redactData(data: unknown, secret: string, copies: Map<object, unknown>): unknown {
  if (typeof data === 'string') return redact(data, secret);
  if (typeof data !== 'object' || data === null) return data;
  if (copies.has(data)) return copies.get(data);
  if (Array.isArray(data)) {
    const copy: unknown[] = [];
    copies.set(data, copy);
    for (const item of data) copy.push(redactData(item, secret, copies));
    return copy;
  }
  const proto = Object.getPrototypeOf(data);
  if (proto !== Object.prototype && proto !== null) return data;
  const copy: Record<string, unknown> = {};
  copies.set(data, copy);
  for (const [key, value] of Object.entries(data))
    copy[redact(key, secret)] = redactData(value, secret, copies);
  return copy;
}
