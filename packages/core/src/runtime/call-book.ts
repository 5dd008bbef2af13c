import type { ArtifactMeta } from '../artifacts/types.js';
import type { AskAnswer, OpenAsk } from '../ask/ask.js';
import type { ToolResult } from '../context/types.js';
import type { ErrorInfo } from '../errors.js';

/**
 * Where a call is in its life: `working` (running, or about to), `input_required` (waiting for a
 * person: an approval), then one of the settled states `completed`, `failed` or `cancelled`. The
 * names are MCP's task states.
 *
 * @experimental Call handles and their store may still change.
 */
export type CallStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/**
 * A call's handle: what a caller that left can learn when it comes back. Plain data (JSON and
 * structuredClone carry it), the same at every door: `run.callStatus(id)` in process and in the
 * Web Worker door, `GET /runs/:runId/calls/:callId` over HTTP.
 *
 * @experimental Call handles and their store may still change.
 * @example
 * ```ts
 * import type { CallHandle, Run } from '@toolctx/core';
 * declare const run: Run;
 * const handle: CallHandle | undefined = run.callStatus('call_1');
 * if (handle?.status === 'completed' && handle.result?.ok) console.log(handle.result.content);
 * ```
 */
export interface CallHandle {
  toolCallId: string;
  /** The tool's name. */
  tool: string;
  status: CallStatus;
  /** The call that made this one, for a child call (`ctx.tools.call`). */
  parentId?: string;
  /** When the call started, ms since the epoch. */
  startedAt: number;
  /** When its status last changed, ms since the epoch. */
  updatedAt: number;
  /** While it is `input_required` for an approval: the approval to decide. */
  approvalId?: string;
  /**
   * While it is `input_required` for an ask (`ctx.ask`): the question, to answer with
   * `run.answer`; the oldest, when several are open.
   */
  ask?: OpenAsk;
  /** While it is `input_required` for asks: every open ask of the call, oldest first (`ask` is the first). */
  asks?: OpenAsk[];
  /** Attempts started in all, where more than one: each run again after its host restarted counts. */
  attempts?: number;
  /**
   * Once settled: what the caller got, whole — or, when its value was over the call's output
   * budget and saved as an artifact, a {@link LinkedResult} naming that artifact.
   */
  result?: KeptResult;
  /**
   * Once settled: the artifacts the call and its child calls saved with `ctx.artifacts` that no
   * call of the run deleted before it settled, the first 20 of them, oldest first; absent when it
   * saved none. MCP's task results link to them as `tools/call` results do.
   */
  artifacts?: SavedArtifact[];
}

/**
 * An artifact a call saved, as its handle names it: enough to link to it (MCP's `resource_link`)
 * without reading the store. Read it with the run's identity, as any of its artifacts.
 *
 * @experimental Call handles and their store may still change.
 * @example
 * ```ts
 * import type { CallHandle, SavedArtifact } from '@toolctx/core';
 * declare const handle: CallHandle;
 * const saved: SavedArtifact[] = handle.artifacts ?? [];
 * for (const { ref, mediaType, bytes } of saved) console.log(ref, mediaType, bytes);
 * ```
 */
export type SavedArtifact = Pick<ArtifactMeta, 'ref' | 'kind' | 'mediaType' | 'bytes' | 'label'>;

/** How many saved artifacts a call's handle names at most (`CallHandle.artifacts`). */
export const maxSavedArtifacts = 20;

/**
 * A settled result as a call's handle keeps it: the `ToolResult` whole, or linked. A result whose
 * value was over the call's output budget was saved whole as an artifact (`spilled.ref`, kind
 * `tool-result/<tool>`) before its transcript copy was cut; the handle keeps that copy and the
 * link, not the value a second time. The artifact is the value's JSON (`application/json`) or,
 * for a string value, the string (`text/plain`), readable by the call's identity as any of its
 * artifacts are, for as long as the artifact store keeps it. Nothing is cut silently: without an
 * artifact store, or for a result with content parts, the handle keeps the result whole.
 *
 * @experimental Call handles and their store may still change.
 * @example
 * ```ts
 * import type { KeptResult } from '@toolctx/core';
 * declare const kept: KeptResult;
 * if (kept.ok && 'linked' in kept) console.log(`the value is artifact ${kept.spilled.ref}`);
 * else if (kept.ok) console.log(kept.value);
 * ```
 */
export type KeptResult = ToolResult | LinkedResult;

/**
 * A settled result kept as a link to the artifact holding its value: see {@link KeptResult}.
 *
 * @experimental Call handles and their store may still change.
 */
export interface LinkedResult {
  ok: true;
  /** The value is not kept here: it is the artifact `spilled.ref`. */
  linked: true;
  /** The transcript copy the caller got, cut to the budget, its marker naming the artifact. */
  content: string;
  spilled: { ref: string; bytes: number; keptBytes: number };
}

/** What a call's record keeps of its result: see {@link KeptResult}. */
export function keptResult(result: ToolResult): KeptResult {
  const ref = result.ok ? result.spilled?.ref : undefined;
  if (!result.ok || ref === undefined || result.parts) return result;
  const { bytes, keptBytes } = result.spilled!;
  return { ok: true, linked: true, content: result.content, spilled: { ref, bytes, keptBytes } };
}

/**
 * What a run keeps of a call: its handle and, while it is open, what running it again takes.
 * Plain data, so a host can persist it.
 *
 * @experimental Call handles and their store may still change.
 */
export interface CallRecord extends Omit<CallHandle, 'ask' | 'asks'> {
  /** The model turn the call belongs to (`ctx.iteration`). */
  iteration: number;
  /** While `working`: its arguments as asked, for running it again after a restart. */
  args?: unknown;
  /** Its open asks, oldest first, each under its `key`. */
  asks?: OpenAsk[];
  /** The answers its asks got so far, by key: a call run again gets them back. */
  answers?: Record<string, AskAnswer>;
}

/**
 * Where a run keeps its calls' records: the one owner of call handles. Synchronous, as
 * {@link PendingApprovalStore} is. In memory unless the host passes its own to
 * `runtime.startRun({ calls })`; a host whose runs outlive a restart passes a durable store and,
 * starting the run again under the same `runId`, the same store: the calls it finds still
 * `working` were cut off by the restart and are settled then (`interrupted`, or run again).
 *
 * @experimental Call handles and their store may still change.
 * @example
 * ```ts
 * import type { CallRecord, CallStore } from '@toolctx/core';
 * const records = new Map<string, CallRecord>();
 * const calls: CallStore = {
 *   get: (id) => records.get(id),
 *   put: (record) => void records.set(record.toolCallId, record),
 *   open: () => [...records.values()].filter((record) => record.status === 'working' || record.status === 'input_required'),
 * };
 * ```
 */
export interface CallStore {
  /** The record of the call with this id, open or settled; `undefined` when the store has none. */
  get(toolCallId: string): CallRecord | undefined;
  /** Files the record under its `toolCallId`, replacing what was there. */
  put(record: CallRecord): void;
  /** The records that are not settled (`working` or `input_required`), in no particular order. */
  open(): Iterable<CallRecord>;
}

/**
 * A record's handle: what a caller may see of it (not its arguments, nor the answers its asks
 * got). The one place a record becomes a handle, for the run and for a host reading its store.
 *
 * @experimental Call handles and their store may still change.
 * @example
 * ```ts
 * import { type CallRecord, callHandleOf } from '@toolctx/core';
 * declare const record: CallRecord;
 * const { status, result } = callHandleOf(record);
 * ```
 */
export function callHandleOf(record: CallRecord): CallHandle {
  const { iteration: _i, args: _args, asks, answers: _answers, ...rest } = record;
  const handle: CallHandle = rest;
  if (asks?.length) {
    handle.ask = asks[0];
    handle.asks = asks;
  }
  return handle;
}

/** Whether a call in this status is over. */
export function isSettled(status: CallStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** The status a call's answer leaves it in. */
export function statusOf(result: ToolResult): CallStatus {
  if (result.ok) return 'completed';
  const { kind } = result.error;
  if (kind === 'approval-pending' || kind === 'input-required') return 'input_required';
  return kind === 'aborted' ? 'cancelled' : 'failed';
}

/** Settled records a memory store keeps, newest first; older ones are forgotten. */
export const memoryCallsKept = 1000;

/**
 * A {@link CallStore} in memory: what a run uses unless given one. Every open call, and the
 * newest 1,000 settled ones (`kept`).
 *
 * @experimental Call handles and their store may still change.
 * @example
 * ```ts
 * import { createMemoryCallStore } from '@toolctx/core/memory';
 * const calls = createMemoryCallStore();
 * calls.put({ toolCallId: 'c1', tool: 'echo', status: 'working', startedAt: 0, updatedAt: 0, iteration: 1 });
 * ```
 */
export function createMemoryCallStore(kept = memoryCallsKept): CallStore {
  const open = new Map<string, CallRecord>();
  // Settled records in a ring of `kept`, the oldest overwritten; found by id through an index
  // made on the first look-up. A run whose calls nobody looks up (ids the run made, no
  // `callStatus`) pays no hashing of ids for its handles.
  const settled: CallRecord[] = [];
  let next = 0;
  let index: Map<string, CallRecord> | undefined;
  return {
    get(id) {
      const found = open.get(id);
      if (found) return found;
      if (!index) {
        index = new Map();
        // Oldest first, so the newest record of an id filed twice wins.
        for (let i = 0; i < settled.length; i++) {
          const record = settled[(next + i) % settled.length]!;
          index.set(record.toolCallId, record);
        }
      }
      return index.get(id);
    },
    put(record) {
      const id = record.toolCallId;
      if (!isSettled(record.status)) {
        open.set(id, record);
        return;
      }
      if (open.size) open.delete(id);
      if (kept < 1) return;
      const forgotten = settled[next];
      settled[next] = record;
      // Not `% kept`: a division on every call.
      if (++next >= kept) next = 0;
      if (!index) return;
      if (forgotten && index.get(forgotten.toolCallId) === forgotten) index.delete(forgotten.toolCallId);
      index.set(id, record);
    },
    open: () => open.values(),
  };
}

/** The failure of a call its host's restart cut off; retryable, since nothing says it finished. */
export function interrupted(toolName: string): ErrorInfo {
  return {
    kind: 'interrupted',
    message: `"${toolName}" was running when its host restarted, and its outcome is unknown; call it again if it is safe to.`,
    retryable: true,
  };
}
