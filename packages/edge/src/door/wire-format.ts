// How a run's events and call results cross the wire: SSE messages, JSON that always parses,
// and the answer when the server failed mid-stream.
import type { ToolEvent, ToolResult } from '@toolctx/core';
import { encodeSseBytes, hasLineBreak, plainJson } from '@toolctx/core/sse';

const encoder = new TextEncoder();

/** Text as UTF-8 bytes, such as a JSON answer's result. */
export const utf8 = (text: string): Uint8Array => encoder.encode(text);

/**
 * An event as the SSE message a reader of the run gets: `id` is its `seq`, `event` its type, and
 * its data plain data written as JSON (`plainJson`: a bigint, a Map, a Set or a cycle in a
 * progress report does not lose the event).
 */
export function eventMessage(event: ToolEvent): Uint8Array {
  const data = plainJson(event);
  // Core refuses event types that are not one line; one that got into a log anyway (an older
  // runtime, a hand-written log) goes out as a plain message rather than breaking the stream.
  if (hasLineBreak(event.type)) return encodeSseBytes({ id: String(event.seq), data });
  return encodeSseBytes({ id: String(event.seq), event: event.type, data });
}

/**
 * The answer when the server itself failed after the 200 was sent (a tool's failure is a result,
 * never this): still a `ToolResult`, so a client reads JSON, not a body of whitespace.
 */
export function lostOutcome(): ToolResult {
  return {
    ok: false,
    error: {
      kind: 'internal',
      message:
        "The server failed while running the call, so its outcome is unknown. Read the run's events to see whether it finished before calling it again.",
      retryable: true,
    },
  };
}

/** The result as JSON text; a value JSON cannot carry becomes an error, not a 500. */
export function resultJson(result: ToolResult): string {
  try {
    return JSON.stringify(result);
  } catch {
    return JSON.stringify(jsonSafe(result));
  }
}

/** The result as it will cross JSON: a value JSON cannot carry becomes an error, not a 500. */
export function jsonSafe(result: ToolResult): ToolResult {
  try {
    return JSON.parse(JSON.stringify(result)) as ToolResult;
  } catch {
    return {
      ok: false,
      error: {
        kind: 'tool-error',
        message: 'The tool returned a value that cannot be sent as JSON.',
        retryable: false,
      },
    };
  }
}
