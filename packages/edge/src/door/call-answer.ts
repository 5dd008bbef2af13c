import type { ToolEvent, ToolResult } from '@toolctx/core';
import { encodeSseBytes } from '@toolctx/core/sse';
import { type Channel, createChannel, jsonHeartbeat } from './channel.js';
import { settledWithinTurns } from './settled-within-turns.js';
import { lostOutcome, resultJson, utf8 } from './wire-format.js';

/**
 * How a call's answer is sent: `'sse'`, its events then an `event: result` message; `'json'`, its
 * `ToolResult` as JSON after whitespace heartbeats (which find a client that hung up).
 */
export type CallFormat = 'sse' | 'json';

/**
 * A call's answer as the run sends it: a stream (SSE, or JSON after heartbeats), or — for a `json`
 * call that settled at once, having waited on no I/O — its `ToolResult` as JSON text, sent whole.
 *
 * @experimental How a settled-at-once call is answered may still change.
 */
export type CallAnswer = ReadableStream<Uint8Array> | string;

/** A call's answer, and how to drop it when the call turned out not to run. */
export interface CallAnswerOf {
  body: CallAnswer;
  discard(): void;
}

/** What {@link answerCall} needs from the run whose call it answers. */
export interface AnswerCallOptions {
  callId: string;
  format: CallFormat;
  /** Runs the call; called before the first await. */
  start(): Promise<ToolResult>;
  heartbeatMs: number;
  /** How far behind its reader a stream may fall before the reader is dropped (see `createChannel`). */
  maxQueuedBytes?: number;
  /** Hears each of the run's events with its SSE bytes; returns the unsubscribe. */
  subscribe(listener: (event: ToolEvent, message: Uint8Array) => void): () => void;
  /** Cancels the call (its reader hung up). */
  cancel(): void;
  /**
   * Cancel the call too when its reader falls too far behind and is dropped: for a call with no
   * run, where nothing could give that reader the rest. Default: the call goes on.
   */
  cancelWhenBehind?: boolean;
}

/**
 * One call's answer on the wire. As `sse`: subscribed before `start` runs the call, so none of its
 * events (its child calls' too) is missed, then an `event: result` message. As `json`: a call that
 * settles within a few dozen microtask turns (it waited on no I/O) is its `ToolResult` as JSON
 * text, with no stream to pay for; a longer one is whitespace heartbeats, then the `ToolResult`.
 * A reader of a stream that hangs up is found by the first write that fails and cancels the call;
 * one that falls too far behind is dropped and the call goes on.
 */
export async function answerCall(options: AnswerCallOptions): Promise<CallAnswerOf> {
  const { callId, format, heartbeatMs, maxQueuedBytes } = options;
  let unsubscribe = () => {};
  let channel: Channel | undefined;
  if (format === 'sse') {
    const sse = createChannel({ heartbeatMs, ...(maxQueuedBytes ? { maxQueuedBytes } : {}) });
    const ids = new Set([callId]);
    unsubscribe = options.subscribe((event, message) => {
      if (!event.callId) return;
      if (!ids.has(event.callId) && !(event.parentId && ids.has(event.parentId))) return;
      ids.add(event.callId);
      sse.write(message);
    });
    channel = sse;
  }
  const settled = options
    .start()
    .catch(lostOutcome)
    .finally(() => unsubscribe());
  if (!channel) {
    const quick = await settledWithinTurns(settled);
    if (quick) return { body: resultJson(quick), discard: () => {} };
    channel = createChannel({
      heartbeatMs,
      heartbeat: jsonHeartbeat,
      ...(maxQueuedBytes ? { maxQueuedBytes } : {}),
    });
  }
  const open = channel;
  // A reader that goes away cancels the call it was watching. One dropped for falling behind only
  // stops being written to: the call goes on in its run, whose events stream and call handle give
  // it the rest.
  open.onGone((why) => {
    unsubscribe();
    if (why === 'gone' || options.cancelWhenBehind) options.cancel();
  });
  let discarded = false;
  void settled
    .then((result) => {
      if (discarded) return;
      const data = resultJson(result);
      open.write(format === 'sse' ? encodeSseBytes({ event: 'result', data }) : utf8(data));
    })
    .finally(() => open.close());
  return {
    body: open.readable,
    discard() {
      discarded = true;
      unsubscribe();
      open.close();
    },
  };
}
