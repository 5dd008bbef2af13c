// `POST /calls`: one call outside any run, for callers that need no run state (as MCP's
// `tools/call` is one call). The call runs in the request's isolate through `runtime.callOnce`,
// served as the one-shot door; no Durable Object is involved, but for the identity's counter of
// calls in flight when the server has a `callLimit`.
import { type Identity, type Runtime, type ToolResult, unknownToolError } from '@toolctx/core';
import { encodeSseBytes, sseHeaders } from '@toolctx/core/sse';
import type { CallSlot } from '../run-host/call-slots.js';
import { httpCallDoor } from '../run-host/doors.js';
import { settledWithin } from '../run-host/settled-within.js';
import { eventMessage, lostOutcome, resultJson, utf8 } from '../run-host/wire-format.js';
import { type Channel, createChannel, jsonHeartbeat } from '../sse/channel.js';
import { HttpError } from './http-error.js';
import { jsonHeaders, jsonStreamHeaders } from './json-stream.js';
import type { CallBody } from './parse-request.js';

/** The runtime served as the one-shot door, made once per runtime: same tools, ports and sessions. */
const callDoors = new WeakMap<Runtime, Runtime>();

function callDoorOf(runtime: Runtime): Runtime {
  let door = callDoors.get(runtime);
  if (!door) {
    door = runtime.withDoor(httpCallDoor);
    callDoors.set(runtime, door);
  }
  return door;
}

/** What one `POST /calls` needs from its request. */
export interface OneShotRequest {
  runtime: Runtime;
  identity: Identity;
  body: CallBody;
  format: 'json' | 'sse';
  /** The request: where the platform fires its signal on a hang-up, that aborts the call. */
  request: Request;
  /** Takes the identity's slot for the call (or throws the 429), when calls are counted. */
  admit?: () => Promise<CallSlot>;
}

/**
 * Runs one call and answers it: as `sse`, the call's events then a `result` message (the run
 * route's wire format); as `json`, the `ToolResult`. A call that settles at once (within a few
 * dozen microtask turns: it waited on no I/O) is answered as a plain JSON body; a longer one gets
 * the run route's streamed JSON (whitespace heartbeats, then the result), so a client that hangs
 * up is found by a failed write and aborts the call, as the request's signal does where the
 * platform fires it.
 */
export async function answerOneShot({
  runtime,
  identity,
  body,
  format,
  request,
  admit,
}: OneShotRequest): Promise<Response> {
  const door = callDoorOf(runtime);
  if (!door.tools.has(body.tool)) {
    const { message, details } = unknownToolError(body.tool, door.tools.keys());
    throw new HttpError(404, 'unknown-tool', message, details);
  }
  const toolCallId = body.toolCallId ?? `call_${crypto.randomUUID()}`;
  const headers = { 'x-toolctx-call-id': toolCallId };
  const controller = new AbortController();
  const abort = () => controller.abort();
  const slot = await admit?.();
  const channel = format === 'sse' ? createChannel() : undefined;
  // The slot is back before the answer goes out, so a client that has its answer can call again;
  // a hang-up aborts the call, which settles it, which gives the slot back.
  const outcome = door
    .callOnce({
      tool: body.tool,
      args: body.args,
      toolCallId,
      identity,
      signal: controller.signal,
      ...(channel ? { onEvent: (event) => channel.write(eventMessage(event)) } : {}),
    })
    .then(withoutRun, lostOutcome);
  const settled = slot
    ? outcome.then(async (result) => {
        await slot.release();
        return result;
      })
    : outcome;
  // The request's signal is listened to only by a call that outlasts the fast path: a quick call
  // has no time to be hung up on, and workerd charges for the listener on every request.
  const listen = () => {
    request.signal.addEventListener('abort', abort, { once: true });
    void settled.then(() => request.signal.removeEventListener('abort', abort));
  };
  if (channel) {
    listen();
    streamInto(channel, settled, abort, (data) => encodeSseBytes({ event: 'result', data }));
    return new Response(channel.readable, { headers: { ...sseHeaders, ...headers } });
  }
  const quick = await settledWithin(outcome);
  if (quick) {
    await settled;
    return new Response(resultJson(quick), { headers: { ...jsonHeaders, ...headers } });
  }
  listen();
  const json = createChannel({ heartbeat: jsonHeartbeat });
  streamInto(json, settled, abort, utf8);
  return new Response(json.readable, { headers: { ...jsonStreamHeaders, ...headers } });
}

/**
 * Writes the result into `channel` when it comes and closes it. A reader that leaves aborts the
 * call, and so does one dropped for falling too far behind: without a run, nothing could give it
 * the rest of the call's events or its result.
 */
function streamInto(
  channel: Channel,
  settled: Promise<ToolResult>,
  abort: () => void,
  encode: (data: string) => Uint8Array,
): void {
  channel.onGone(abort);
  void settled.then((result) => {
    channel.write(encode(resultJson(result)));
    channel.close();
  });
}

/**
 * A call left waiting for approval has no run to be resumed in, so its approval id is of no use:
 * the answer says so and names the route that can wait.
 */
function withoutRun(result: ToolResult): ToolResult {
  if (result.ok || result.error.kind !== 'approval-pending') return result;
  const { toolName, callId } = (result.error.details ?? {}) as { toolName?: string; callId?: string };
  return {
    ok: false,
    error: {
      kind: 'approval-pending',
      message:
        `The tool ${toolName ?? 'called'} needs approval, and POST /calls has no run in which a call can wait ` +
        'for one, so there is nothing to resume. Start a run with POST /runs, call the tool there ' +
        '(POST /runs/:runId/calls) and decide its approval with POST /approvals/:id.',
      retryable: false,
      details: { toolName, callId },
    },
  };
}
