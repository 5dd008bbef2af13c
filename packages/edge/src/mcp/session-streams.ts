import type { RequestId } from '@modelcontextprotocol/server';
import { createChannel } from '../door/channel.js';
import type { StoredEvent } from './event-store.js';
import { jsonRpcError } from './wire.js';

/**
 * How often an MCP session's SSE streams write a comment line. Nothing else tells a Durable Object
 * that a client hung up (the cancel of a stream it returned never reaches it, nor does
 * `request.signal` under local workerd): a write that fails does, within about four heartbeats.
 */
export const heartbeatMs = 500;

/** The `retry` a stream's priming event names: how long a client waits before it resumes. */
export const retryMs = 1000;

/**
 * Streams `body` to the client through a channel that, for SSE, writes a heartbeat comment every
 * {@link heartbeatMs}. A client that is gone before the body ends (its first failed write), or
 * more than the channel's bound behind (1 MiB), is let go: the body is cancelled, which frees the
 * transport's hold on the stream and nothing else. The stream's calls go on, what they send goes to
 * the event store, and the client resumes with `Last-Event-ID`; only `notifications/cancelled` or
 * a DELETE of the session cancels a call (MCP 2025-11-25: a disconnect SHOULD NOT be a cancel).
 */
export function watchStream(body: ReadableStream<Uint8Array>, sse: boolean): ReadableStream<Uint8Array> {
  const channel = createChannel({ heartbeatMs: sse ? heartbeatMs : 0 });
  const reader = body.getReader();
  let settled = false;
  channel.onGone(() => {
    if (settled) return;
    settled = true;
    reader.cancel().catch(() => {});
  });
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        channel.write(value);
      }
    } catch {
      // The transport broke the stream: end it for the client too.
    }
    if (settled) return;
    settled = true;
    channel.close();
  })();
  return channel.readable;
}

/** Stored events as a finished SSE stream, for a resume answered from the store alone. */
export function replayResponse(sessionId: string, events: StoredEvent[]): Response {
  const body = events
    .map(({ id, message }) => `event: message\nid: ${id}\ndata: ${JSON.stringify(message)}\n\n`)
    .join('');
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      'mcp-session-id': sessionId,
    },
  });
}

/** Whether a message is a JSON-RPC response (a result or an error): the end of a POST's stream. */
export function isResponse(message: object): boolean {
  return 'id' in message && ('result' in message || 'error' in message);
}

/** The 400 for a `Last-Event-ID` this session keeps no event for. */
export function unknownEvent(): Response {
  return jsonRpcError(
    400,
    -32000,
    'Bad Request: Last-Event-ID names no event this session keeps (unknown, or past the bounds of its event store). Open the stream again without Last-Event-ID.',
  );
}

/** A POST's request ids, reserved until each has its answer. */
export interface Reservation {
  /** Frees the ids now (the exchange failed); once only. */
  release(): void;
}

/**
 * Marks a POST's request ids as in flight until each has its answer (`awaiting` is told of every
 * answer the transport sends), or refuses the POST if one of them is still in flight (or appears
 * twice in it): the transport routes a response by its request id, so a second request with the
 * same id would take over the first one's stream. A stream can end before its answers (a handler
 * that asks for polling closes it), so its end frees nothing.
 */
export function reserve(
  inFlight: Set<RequestId>,
  awaiting: Map<RequestId, (id: RequestId) => void>,
  ids: RequestId[],
): Reservation | Response {
  const reused = ids.find((id, i) => inFlight.has(id) || ids.indexOf(id) !== i);
  if (reused !== undefined) {
    return jsonRpcError(
      409,
      -32600,
      `Invalid Request: the request id ${JSON.stringify(reused)} is already in use by a request in progress in this session. Give every request a new id.`,
    );
  }
  const unanswered = new Set(ids);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    for (const id of ids) {
      inFlight.delete(id);
      if (awaiting.get(id) === answered) awaiting.delete(id);
    }
  };
  const answered = (id: RequestId) => {
    unanswered.delete(id);
    if (unanswered.size === 0) release();
  };
  for (const id of ids) {
    inFlight.add(id);
    awaiting.set(id, answered);
  }
  return { release };
}

/** The ids of the JSON-RPC requests a POST carries: the calls its response stream answers. */
export function callIdsOf(text: string): RequestId[] {
  try {
    const body: unknown = JSON.parse(text);
    const messages = Array.isArray(body) ? body : [body];
    return messages
      .filter(
        (message) =>
          typeof message?.method === 'string' &&
          (typeof message.id === 'string' || typeof message.id === 'number'),
      )
      .map((message) => message.id as RequestId);
  } catch {
    return [];
  }
}
