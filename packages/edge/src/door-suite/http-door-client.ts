// Test helper: a DoorClient over the HTTP+SSE door, through the test Worker's fetch or a server's.
import type { CallHandle, ErrorInfo, OpenAsk, ProgressPayload, ToolEvent, ToolResult } from '@toolctx/core';
import { readSse } from '@toolctx/core/sse';
import type { DoorCallOutcome, DoorClient } from '@toolctx/core/testing';

type Fetch = (request: Request) => Promise<Response>;

/** Requests as `caller` to `origin` (a server on loopback), or to a placeholder one that `fetch` ignores. */
function sender(fetch: Fetch, caller: string, origin = 'http://door-suite.test') {
  return (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${caller}`);
    if (init.body) headers.set('content-type', 'application/json');
    return fetch(new Request(`${origin}${path}`, { ...init, headers }));
  };
}

/** A call's SSE answer read to its end: its events (its child calls' too) and progress, then its result. */
async function readCallStream(
  response: Response,
  toolCallId: string,
  route: string,
): Promise<DoorCallOutcome> {
  const progress: ProgressPayload[] = [];
  const events: ToolEvent[] = [];
  let result: ToolResult | undefined;
  for await (const message of readSse(response.body!)) {
    if (message.event === 'result') {
      result = JSON.parse(message.data) as ToolResult;
      continue;
    }
    const event = JSON.parse(message.data) as ToolEvent;
    // After the result nothing may arrive: keep it, so the suite sees it.
    events.push(event);
    if (event.type === 'tool.progress' && event.callId === toolCallId) {
      progress.push((event.data as { payload: ProgressPayload }).payload);
    }
  }
  if (!result) throw new Error(`${route} ended without a result (${response.status}).`);
  return { result, progress, events };
}

/** An artifact's text read back through `GET /artifacts/:ref`, or `null` when the caller has none by that ref. */
async function readArtifactAt(send: ReturnType<typeof sender>, ref: string): Promise<unknown> {
  const response = await send(`/artifacts/${ref}`);
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) throw new Error(`GET /artifacts/${ref} answered ${response.status}.`);
  return response.text();
}

/**
 * Starts a run as `caller` and calls through `POST /runs/:id/calls` as SSE: the call's events
 * arrive as they happen, then its result. An abort of the caller's signal cancels the call
 * through `POST /runs/:id/calls/:callId/cancel`, and the stream still ends with the result.
 * Requests go to `origin` (a server on loopback), or to a placeholder one that `fetch` ignores.
 */
export async function httpDoorClient(
  fetch: Fetch,
  caller: string,
  options: {
    origin?: string;
    endSession?: (runId: string) => Promise<void>;
    /** Restarts the host of the run's Durable Object as a crash would (in the vitest pool, `abortAllDurableObjects`). */
    restart?: () => Promise<void>;
  } = {},
): Promise<DoorClient> {
  const send = sender(fetch, caller, options.origin);
  const sessionId = `session-${crypto.randomUUID()}`;
  const started = await send('/runs', { method: 'POST', body: JSON.stringify({ sessionId }) });
  const { runId } = (await started.json()) as { runId: string };
  let ended = false;
  const end = async () => {
    if (ended) return;
    ended = true;
    await (await send(`/runs/${runId}`, { method: 'DELETE' })).body?.cancel();
  };
  return {
    runId,
    async call(
      tool,
      args,
      { signal, toolCallId = `call_${crypto.randomUUID()}` } = {},
    ): Promise<DoorCallOutcome> {
      const response = await send(`/runs/${runId}/calls`, {
        method: 'POST',
        body: JSON.stringify({ tool, args, toolCallId }),
        headers: { accept: 'text/event-stream' },
      });
      const onAbort = () =>
        void send(`/runs/${runId}/calls/${toolCallId}/cancel`, { method: 'POST' }).then((r) =>
          r.body?.cancel(),
        );
      signal?.addEventListener('abort', onAbort, { once: true });
      // The door refuses a call it cannot admit (an unknown tool) with a 4xx whose body is the ErrorInfo.
      if (!response.ok)
        return { result: { ok: false, error: await response.json() }, progress: [], events: [] };
      try {
        return await readCallStream(response, toolCallId, `POST /runs/${runId}/calls`);
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
    async end(scope) {
      if (scope === 'run') return end();
      if (scope !== 'session' || !options.endSession)
        throw new Error(`This HTTP door has no ${scope} to end.`);
      ended = true;
      await options.endSession(runId);
    },
    callStatus: (toolCallId) => handleAt(send, runId, toolCallId),
    // A new connection is new requests: the handle lives with the run, not with a connection.
    reconnect: async () => ({ callStatus: (toolCallId) => handleAt(send, runId, toolCallId) }),
    ...(options.restart ? { restart: options.restart } : {}),
    async asks() {
      const response = await send(`/runs/${runId}/asks`);
      if (!response.ok) throw new Error(`GET /runs/${runId}/asks answered ${response.status}.`);
      return ((await response.json()) as { asks: OpenAsk[] }).asks;
    },
    async answer(askId, answer) {
      const response = await send(`/runs/${runId}/asks/${encodeURIComponent(askId)}`, {
        method: 'POST',
        body: JSON.stringify(answer),
      });
      const body = (await response.json()) as { toolCallId: string } & ErrorInfo;
      if (response.ok) return { taken: true, toolCallId: body.toolCallId };
      return {
        taken: false,
        reason: response.status === 400 || response.status === 413 ? 'invalid' : 'unknown',
        error: body,
      };
    },
    readArtifact: (ref) => readArtifactAt(send, ref),
    close: end,
  };
}

/** A call's handle from `GET /runs/:runId/calls/:callId`; `undefined` on its 404. */
async function handleAt(
  send: ReturnType<typeof sender>,
  runId: string,
  toolCallId: string,
): Promise<CallHandle | undefined> {
  const response = await send(`/runs/${runId}/calls/${encodeURIComponent(toolCallId)}`);
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.ok) throw new Error(`GET /runs/${runId}/calls/${toolCallId} answered ${response.status}.`);
  return (await response.json()) as CallHandle;
}

/**
 * Calls through `POST /calls` as SSE, one call without a run: there is no run to end and no
 * cancel route, so an abort of the caller's signal hangs up, which aborts the call at the door,
 * and settles as `aborted` here.
 */
export function oneShotDoorClient(
  fetch: Fetch,
  caller: string,
  options: { origin?: string } = {},
): DoorClient {
  const send = sender(fetch, caller, options.origin);
  return {
    async call(tool, args, { signal } = {}): Promise<DoorCallOutcome> {
      const toolCallId = `call_${crypto.randomUUID()}`;
      try {
        const response = await send('/calls', {
          method: 'POST',
          body: JSON.stringify({ tool, args, toolCallId }),
          headers: { accept: 'text/event-stream' },
          ...(signal ? { signal } : {}),
        });
        if (!response.ok)
          return { result: { ok: false, error: await response.json() }, progress: [], events: [] };
        return await readCallStream(response, toolCallId, 'POST /calls');
      } catch (thrown) {
        if (!signal?.aborted) throw thrown;
        return {
          result: { ok: false, error: { kind: 'aborted', message: 'The caller hung up.', retryable: false } },
          progress: [],
          events: [],
        };
      }
    },
    async end(scope) {
      throw new Error(`POST /calls has no ${scope} to end.`);
    },
    readArtifact: (ref) => readArtifactAt(send, ref),
    close: async () => {},
  };
}
