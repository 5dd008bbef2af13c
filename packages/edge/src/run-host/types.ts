import type { Identity, Phase } from '@toolctx/core';

/**
 * What starts a run at the door: the identity comes from `authenticate`, the rest from the body.
 *
 * @example
 * ```ts
 * import type { RunDirectory, RunInit } from '@toolctx/edge';
 * declare const runs: RunDirectory;
 * const init: RunInit = { runId: 'run_1', identity: { tenant: 'acme', principal: 'ana' }, phase: 'act' };
 * await runs.start(init);
 * ```
 */
export interface RunInit {
  runId: string;
  identity: Identity;
  sessionId?: string;
  phase?: Phase;
  state?: Record<string, unknown>;
  /**
   * When the run starts, ms since the epoch; default now. A directory that lists runs sets it, so
   * the run's record and its entry in its identity's list agree.
   */
  createdAt?: number;
  /**
   * Ends the run once the call of this id settles (finished or failed, not while it waits for a
   * person), so its retention counts from then: a run of one call, such as an MCP task.
   */
  endsWithCall?: string;
}

/**
 * What the door tells a client about a run.
 *
 * @example
 * ```ts
 * import type { RunInfo } from '@toolctx/edge';
 * const base = 'https://tools.example.com';
 * const headers = { authorization: 'Bearer …' };
 * const info = (await (await fetch(`${base}/runs`, { method: 'POST', headers })).json()) as RunInfo;
 * const events = new EventSource(`${base}/runs/${info.runId}/events?after=${info.lastSeq}`);
 * ```
 */
export interface RunInfo {
  runId: string;
  phase: Phase;
  sessionId?: string;
  ended: boolean;
  /** The `seq` of the last event recorded; resume the event stream after it. */
  lastSeq: number;
}

/**
 * A call as it crosses the door; the door always names it, so a cancel can find it.
 *
 * @example
 * ```ts
 * import type { DoorCall, RunDirectory } from '@toolctx/edge';
 * declare const runs: RunDirectory;
 * const call: DoorCall = { tool: 'slow_wait', args: { ms: 1000 }, toolCallId: 'call_1' };
 * await runs.get('run_1').startCall({ tenant: 'acme', principal: 'ana' }, call);
 * ```
 */
export interface DoorCall {
  tool: string;
  args: unknown;
  toolCallId: string;
  /**
   * The door made `toolCallId` itself, new (`call_` and a random UUID), so no call of the run can
   * have it: the run does not look for a twin in its storage. Leave it out for an id a client sent.
   */
  newId?: boolean;
}

/**
 * The answer to a cancel.
 *
 * @example
 * ```ts
 * import type { CancelInfo } from '@toolctx/edge';
 * const headers = { authorization: 'Bearer …' };
 * const answer = (await (await fetch('https://tools.example.com/runs/run_1/calls/call_1/cancel', { method: 'POST', headers })).json()) as CancelInfo;
 * ```
 */
export interface CancelInfo {
  callId: string;
  cancelled: true;
}

/**
 * The body of `POST /runs/:runId/asks/:askId` once core took the answer: the asking call goes on
 * with it.
 *
 * @experimental Asks over HTTP are new; the answer may still change.
 *
 * @example
 * ```ts
 * import type { AskTaken } from '@toolctx/edge';
 * const headers = { authorization: 'Bearer …', 'content-type': 'application/json' };
 * const body = JSON.stringify({ action: 'accept', values: { day: 'Tuesday', minutes: 30 } });
 * const response = await fetch('https://tools.example.com/runs/run_1/asks/ask_1', { method: 'POST', headers, body });
 * const taken = (await response.json()) as AskTaken; // { askId, toolCallId, taken: true }
 * ```
 */
export interface AskTaken {
  askId: string;
  toolCallId: string;
  taken: true;
}
