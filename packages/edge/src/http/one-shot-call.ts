// `POST /calls`: one call outside any run, for callers that need no run state (as MCP's
// `tools/call` is one call). The call runs in the request's isolate through `runtime.callOnce`,
// served as the one-shot door; no Durable Object is involved, but for the identity's counter of
// calls in flight when the server has a `callLimit`.
import {
  type Identity,
  type Runtime,
  type ToolEvent,
  type ToolResult,
  unknownToolError,
} from '@toolctx/core';
import { answerCall, type CallAnswer } from '../door/call-answer.js';
import { defaultHeartbeatMs } from '../door/channel.js';
import { eventMessage } from '../door/wire-format.js';
import { type CallSlot, httpCallDoor } from '../run-host/index.js';
import { HttpError } from './http-error.js';
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
  /** Takes the identity's slot for the call (or throws the 429), when calls are counted. */
  takeSlot?: () => Promise<CallSlot>;
}

/**
 * Runs one call and answers it with the run route's one implementation of a call's answer
 * (`answerCall`): as `sse`, the call's events then a `result` message; as `json`, the
 * `ToolResult` — a plain JSON body for a call that settled at once, else streamed JSON (whitespace
 * heartbeats, then the result), so a client that hangs up is found by a failed write and aborts
 * the call. A reader dropped for falling behind aborts it too: without a run, nothing could give
 * it the rest. Answers the body and, for a stream, the abort the route hands the request's signal.
 */
export async function answerOneShot({
  runtime,
  identity,
  body,
  format,
  takeSlot,
}: OneShotRequest): Promise<{ toolCallId: string; answer: CallAnswer; abort: () => void }> {
  const door = callDoorOf(runtime);
  if (!door.tools.has(body.tool)) {
    const { message, details } = unknownToolError(body.tool, door.tools.keys());
    throw new HttpError(404, 'unknown-tool', message, details);
  }
  const toolCallId = body.toolCallId ?? `call_${crypto.randomUUID()}`;
  const controller = new AbortController();
  const abort = () => controller.abort();
  const slot = await takeSlot?.();
  let listener: ((event: ToolEvent, message: Uint8Array) => void) | undefined;
  const answer = await answerCall({
    callId: toolCallId,
    format,
    heartbeatMs: defaultHeartbeatMs,
    cancel: abort,
    cancelWhenBehind: true,
    subscribe(listen) {
      listener = listen;
      return () => {
        listener = undefined;
      };
    },
    start: () => {
      const outcome = door
        .callOnce({
          tool: body.tool,
          args: body.args,
          toolCallId,
          identity,
          signal: controller.signal,
          ...(format === 'sse' ? { onEvent: (event) => listener?.(event, eventMessage(event)) } : {}),
        })
        .then(withoutRun);
      // The slot is back before the answer goes out, so a client that has its answer can call
      // again; a hang-up aborts the call, which settles it, which gives the slot back.
      return slot ? outcome.finally(() => slot.release()) : outcome;
    },
  });
  return { toolCallId, answer: answer.body, abort };
}

/**
 * A call left waiting for approval has no run to be resumed in, so its approval id is of no use
 * and is left out; the message (httpCallDoor's `decides`) names the route that can wait.
 */
function withoutRun(result: ToolResult): ToolResult {
  if (result.ok || result.error.kind !== 'approval-pending') return result;
  const { toolName, callId } = (result.error.details ?? {}) as { toolName?: string; callId?: string };
  return { ok: false, error: { ...result.error, details: { toolName, callId } } };
}
