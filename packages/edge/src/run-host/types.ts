import type { Identity, Phase } from '@toolctx/core';

/** What starts a run at the door: the identity comes from `authenticate`, the rest from the body. */
export interface RunInit {
  runId: string;
  identity: Identity;
  sessionId?: string;
  phase?: Phase;
  state?: Record<string, unknown>;
}

/** What the door tells a client about a run. */
export interface RunInfo {
  runId: string;
  phase: Phase;
  sessionId?: string;
  ended: boolean;
  /** The `seq` of the last event recorded; resume the event stream after it. */
  lastSeq: number;
}

/** A call as it crosses the door; the door always names it, so a cancel can find it. */
export interface DoorCall {
  tool: string;
  args: unknown;
  toolCallId: string;
}

/** The answer to a cancel. */
export interface CancelInfo {
  callId: string;
  cancelled: true;
}
