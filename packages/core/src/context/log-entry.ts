import { plainDataProblem } from '../progress/plain-data.js';
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
 * clone. `redaction` (the call's, while it holds credentials) takes their values out of the
 * message and the data.
 */
export function logEntry(
  tool: string,
  level: unknown,
  message: unknown,
  data: unknown,
  redaction: ((data: unknown) => unknown) | undefined,
): LogEntry | { problem: string } {
  if (typeof level !== 'string' || !(logLevels as readonly string[]).includes(level)) {
    return {
      problem: `ctx.log's level ${JSON.stringify(String(level))} is not one of ${logLevels.join(', ')}.`,
    };
  }
  if (typeof message !== 'string') {
    return { problem: `ctx.log takes a string message second, not ${typeof message}.` };
  }
  const problem = plainDataProblem(data);
  if (problem) return { problem: `ctx.log data holds ${problem}.` };
  const entry: LogEntry = {
    tool,
    level: level as LogLevel,
    message: cutMessage(redaction ? (redaction(message) as string) : message, logMessageMax),
  };
  if (data !== undefined) entry.data = redaction ? redaction(data) : data;
  return entry;
}
