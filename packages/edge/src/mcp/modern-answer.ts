import { createChannel } from '../door/channel.js';
import { heartbeatMs } from './session-streams.js';

/**
 * A 2026-07-28 request's answer, written so that a client that hangs up cancels its call, as the
 * revision requires ("The server MUST treat a client disconnect as cancellation of that
 * request"). workerd tells a Worker of a hang-up only when a write to the response fails (then
 * `request.signal` fires, with `enable_request_signal`), and the SDK's stream writes nothing but
 * a keep-alive every 15 s, its JSON answer nothing until the call ends. So an answer that is not in
 * within {@link heartbeatMs} is an SSE stream that writes a comment each 500 ms; the first write
 * that fails aborts `hangUp` (the signal the SDK's request carries: its transport closes and the
 * tool's `ctx.signal` fires). A late JSON answer goes out as the stream's one message. `done` is
 * called once the answer went out or the client left (the call slots come back); an answer in
 * within the grace, or one for a client that does not accept SSE, is passed on as it is.
 */
export async function answerModern(
  request: Request,
  answer: Promise<Response>,
  hangUp: AbortController,
  done: () => Promise<void>,
): Promise<Response> {
  let stopGrace = () => {};
  const grace = new Promise<undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), heartbeatMs);
    stopGrace = () => clearTimeout(timer);
  });
  let early: Response | undefined;
  try {
    early = await Promise.race([answer, grace]);
  } finally {
    stopGrace();
  }
  const sse = (response: Response) =>
    response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  if (!early && !request.headers.get('accept')?.includes('text/event-stream')) early = await answer;
  if (early && (!early.body || !sse(early))) {
    await done();
    return early;
  }
  const channel = createChannel({ heartbeatMs });
  let finished = false;
  const finish = async () => {
    if (finished) return;
    finished = true;
    await done();
  };
  channel.onGone(() => {
    hangUp.abort(new Error('The client closed the stream, so its request was cancelled.'));
    void finish();
  });
  void (async () => {
    try {
      const response = early ?? (await answer);
      if (response.body && sse(response)) {
        const reader = response.body.getReader();
        for (;;) {
          const { done: ended, value } = await reader.read();
          if (ended) break;
          channel.write(value);
        }
      } else {
        const text = await response.text();
        // One line of JSON, whatever its spacing: an SSE `data:` line ends at a newline.
        if (text)
          channel.write(encoder.encode(`event: message\ndata: ${JSON.stringify(JSON.parse(text))}\n\n`));
      }
    } catch {
      // The exchange broke (the client left, or the handler failed): end the stream.
    }
    await finish();
    channel.close();
  })();
  return new Response(channel.readable, {
    status: early?.status ?? 200,
    headers: early?.headers ?? {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
    },
  });
}

const encoder = new TextEncoder();
