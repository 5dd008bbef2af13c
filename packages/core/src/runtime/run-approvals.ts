import type { ApprovalRequest } from '../approval/approval.js';
import { type ApprovalDecision, isDecision } from '../approval/approval-decision.js';
import type { ApprovalTokens } from '../approval/approval-tokens.js';
import {
  type OpenApproval,
  openApproval,
  type PendingApproval,
  type PendingApprovalStore,
} from '../approval/pending-approvals.js';
import type { Identity } from '../context/types.js';
import type { ErrorInfo } from '../errors.js';

/**
 * Why a decision was not taken; see {@link Decided}.
 *
 * @experimental Call handles and their store may still change.
 */
export type DecisionRefusal =
  | 'unknown-approval'
  | 'already-decided'
  | 'cancelled'
  | 'other-run'
  | 'invalid-decision';

type Taken =
  | { ok: true; pending: PendingApproval }
  | { ok: false; reason: DecisionRefusal; error: ErrorInfo };

/**
 * The one owner of a run's approval state: the calls that wait for a decision, kept in its
 * {@link PendingApprovalStore} (the only place they are kept, so a durable store makes them
 * outlive the process), and the one-use tokens of the calls a decision let through. What this
 * process saw being settled is remembered too, to say why a late decision is refused.
 */
export class RunApprovals {
  private readonly settled = new Map<string, 'already-decided' | 'cancelled'>();
  /**
   * The tokens of approved calls, made by the approval step (approve-call.ts, loaded on first use,
   * as the token code is): most runs never approve a call. They end with the run.
   */
  tokens: ApprovalTokens | undefined;

  constructor(
    private readonly store: PendingApprovalStore,
    private readonly runId: string | undefined,
    private readonly owner: Readonly<Identity> | undefined,
  ) {}

  /** Files the call `request` asks about; `args` are its validated arguments before any guard. */
  file(
    request: ApprovalRequest,
    call: { readonly toolCallId: string; readonly parentId: string | undefined; readonly iteration: number },
    args: unknown,
  ): void {
    const pending: PendingApproval = {
      approvalId: request.approvalId,
      callId: call.toolCallId,
      toolName: request.toolName,
      args,
      argsHash: request.argsHash,
      iteration: call.iteration,
      requestedAt: Date.now(),
    };
    if (this.runId !== undefined) pending.runId = this.runId;
    if (call.parentId !== undefined) pending.parentId = call.parentId;
    if (this.owner) pending.owner = { ...this.owner };
    this.store.put(pending);
  }

  /** Takes a pending approval out to decide it, or says why it cannot be decided. */
  take(approvalId: string, decision: ApprovalDecision): Taken {
    const pending = this.store.get(approvalId);
    if (!pending) {
      return refusal(this.settled.get(approvalId) ?? 'unknown-approval', approvalId);
    }
    if (pending.runId !== this.runId || !sameIdentityFields(pending.owner, this.owner))
      return refusal('other-run', approvalId);
    if (!isDecision(decision)) return refusal('invalid-decision', approvalId);
    this.store.delete(approvalId);
    this.settled.set(approvalId, 'already-decided');
    return { ok: true, pending };
  }

  /** Takes out the approval call `id` waits for (or approval `id`), if it waits: it can no longer be decided. */
  cancel(id: string): PendingApproval | undefined {
    for (const pending of this.store.list()) {
      if ((pending.callId !== id && pending.approvalId !== id) || pending.runId !== this.runId) continue;
      this.store.delete(pending.approvalId);
      this.settled.set(pending.approvalId, 'cancelled');
      return pending;
    }
    return undefined;
  }

  /** The run's pending approvals, the oldest first: those its owner could decide (see `take`). */
  open(): OpenApproval[] {
    const mine = [...this.store.list()].filter(
      (pending) => pending.runId === this.runId && sameIdentityFields(pending.owner, this.owner),
    );
    return mine.sort((a, b) => a.requestedAt - b.requestedAt).map(openApproval);
  }

  /** Drops every approval of the run, which has ended: they lapse with it. Answers the lapsed. */
  clear(): PendingApproval[] {
    const lapsed = [...this.store.list()].filter((pending) => pending.runId === this.runId);
    for (const pending of lapsed) this.store.delete(pending.approvalId);
    this.settled.clear();
    return lapsed;
  }
}

const why: Record<DecisionRefusal, string> = {
  'unknown-approval':
    'No call of this run is waiting for approval {id}; check the id the call returned in details.approvalId.',
  'already-decided': 'Approval {id} was already decided; a decision is given once.',
  cancelled: 'Approval {id} lapsed: its call was cancelled before it was decided.',
  'other-run': 'Approval {id} belongs to another run; decide it on that run, as its owner.',
  'invalid-decision':
    'A decision is { approved: true | false, reason?: string }; approval {id} is still pending.',
};

function refusal(reason: DecisionRefusal, approvalId: string): Taken {
  const error: ErrorInfo = {
    kind: 'approval-invalid',
    message: why[reason].replace('{id}', JSON.stringify(approvalId)),
    retryable: false,
    details: { reason, approvalId },
  };
  return { ok: false, reason, error };
}

/**
 * Whether two owners name the same tenant, principal and conversation, field by field: an absent
 * owner reads as one with no fields, so anonymous and an empty identity match.
 */
function sameIdentityFields(a: Readonly<Identity> | undefined, b: Readonly<Identity> | undefined): boolean {
  return a?.tenant === b?.tenant && a?.principal === b?.principal && a?.conversationId === b?.conversationId;
}
