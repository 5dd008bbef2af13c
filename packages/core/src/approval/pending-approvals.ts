import type { Identity } from '../context/types.js';

/**
 * A call that waits for a person's approval, as its run keeps it: what was asked and enough to
 * run the call after its host restarted. Plain data (it survives structuredClone and JSON), so a
 * host can persist it. The decision binds to `argsHash`, the hash of the arguments the person was
 * shown; it is checked again against the arguments just before the tool runs.
 *
 * @example
 * ```ts
 * import type { PendingApproval } from '@toolctx/core';
 * const show = (p: PendingApproval) => `${p.toolName}(${JSON.stringify(p.args)}) waits as ${p.approvalId}`;
 * ```
 */
export interface PendingApproval {
  approvalId: string;
  runId?: string;
  callId: string;
  /** The call that made this one, for a child call. */
  parentId?: string;
  toolName: string;
  /** The validated arguments, as the model gave them (artifact refs are resolved again on resume). */
  args: unknown;
  /** What the decision is bound to: SHA-256 of the canonical JSON of the arguments the tool gets. */
  argsHash: string;
  /** Who may decide: the identity of the run that asked. */
  owner?: Identity;
  /** The model turn the call belongs to (`ctx.iteration`). */
  iteration: number;
  /** When the approval was asked, ms since the epoch. */
  requestedAt: number;
}

/**
 * A call waiting for a person's decision, as its run lists it (`run.pendingApprovals()`,
 * `GET /runs/:runId/approvals`): the tool and the arguments it would run with once approved, so
 * whoever decides sees what they allow. Plain data. The arguments are the call's own, unredacted:
 * they go only to the run's owner, as the decision does.
 *
 * @experimental The approval API may still change.
 * @example
 * ```ts
 * import type { OpenApproval, Run } from '@toolctx/core';
 * declare const run: Run;
 * const [first]: OpenApproval[] = run.pendingApprovals();
 * if (first) console.log(`${first.tool} wants to run with`, first.args);
 * ```
 */
export interface OpenApproval {
  /** What `run.decide(approvalId, …)` (`POST /approvals/:id`) names it by. */
  approvalId: string;
  toolCallId: string;
  /** The call that made this one, for a child call. */
  parentId?: string;
  tool: string;
  /** The validated arguments the call would run with, once approved. */
  args: unknown;
  /** When the approval was asked, ms since the epoch. */
  requestedAt: number;
}

/** What a pending approval shows of itself: {@link OpenApproval}. */
export function openApproval(pending: PendingApproval): OpenApproval {
  const { approvalId, callId: toolCallId, parentId, toolName: tool, args, requestedAt } = pending;
  return parentId === undefined
    ? { approvalId, toolCallId, tool, args, requestedAt }
    : { approvalId, toolCallId, parentId, tool, args, requestedAt };
}

/**
 * Where a run keeps its calls that wait for approval: the one owner of pending approvals. The run
 * files a call here when the approval port answers `'pending'` and takes it out when it is decided
 * or cancelled, or when the run ends. In memory unless the host passes its own to
 * `runtime.startRun({ pendingApprovals })`: a host whose runs outlive a restart passes a durable
 * store and, when it starts the run again under the same `runId`, the same store — the approvals
 * in it can then be decided. Synchronous, so taking an approval out is atomic: two decisions
 * cannot both win.
 *
 * @example
 * ```ts
 * import type { PendingApproval, PendingApprovalStore } from '@toolctx/core';
 * // The synchronous KV storage of a Durable Object (`ctx.storage.kv`), as far as this store uses it.
 * interface SyncKv {
 *   get<T>(key: string): T | undefined;
 *   put(key: string, value: unknown): void;
 *   delete(key: string): boolean;
 *   list<T>(options: { prefix: string }): Iterable<[string, T]>;
 * }
 * const pendingApprovals = (kv: SyncKv): PendingApprovalStore => ({
 *   get: (id) => kv.get<PendingApproval>(`a:${id}`),
 *   put: (pending) => kv.put(`a:${pending.approvalId}`, pending),
 *   delete: (id) => void kv.delete(`a:${id}`),
 *   list: () => [...kv.list<PendingApproval>({ prefix: 'a:' })].map(([, pending]) => pending),
 * });
 * ```
 */
export interface PendingApprovalStore {
  /** The pending approval with this id, if it is still pending. */
  get(approvalId: string): PendingApproval | undefined;
  /** Files a pending approval under its `approvalId`. */
  put(pending: PendingApproval): void;
  /** Removes a pending approval (decided, cancelled, or its run ended). */
  delete(approvalId: string): void;
  /** Every pending approval, in no particular order. */
  list(): Iterable<PendingApproval>;
}

/**
 * A {@link PendingApprovalStore} in memory: what a run uses unless given one. Its approvals end
 * with the process.
 *
 * @example
 * ```ts
 * import { type AnyTool, createRuntime } from '@toolctx/core';
 * import { createMemoryApprovalPort, createMemoryPendingApprovals } from '@toolctx/core/memory';
 * declare const tools: AnyTool[];
 * const pendingApprovals = createMemoryPendingApprovals();
 * const approval = createMemoryApprovalPort();
 * const run = createRuntime({ tools, approval }).startRun({ runId: 'run_1', pendingApprovals });
 * [...pendingApprovals.list()].map((p) => p.approvalId); // the calls of run_1 that wait
 * ```
 */
export function createMemoryPendingApprovals(): PendingApprovalStore {
  const entries = new Map<string, PendingApproval>();
  return {
    get: (approvalId) => entries.get(approvalId),
    put: (pending) => void entries.set(pending.approvalId, pending),
    delete: (approvalId) => void entries.delete(approvalId),
    list: () => entries.values(),
  };
}
