import type { ToolResult } from '@toolctx/core';
import type { Side } from './side.js';

/** One approval at a time, answered with the column's Approve and Deny buttons. */
export interface ApprovalGate {
  /**
   * Enables the buttons for `approvalId`; resolves with the decided call's result. `decided` hears
   * the person's answer at once, before the call has run.
   */
  ask(approvalId: string, decided?: (approved: boolean) => void): Promise<ToolResult>;
  /** Denies the approval waiting, if any (the agent was stopped). */
  withdraw(reason: string): void;
}

/**
 * Both the Publish button and the agent wait here, so whatever asked, a person answers the same
 * way: the decision goes to the run (`run.resume` or `POST /approvals/:id`).
 */
export function createApprovalGate(
  side: Side,
  approve: HTMLButtonElement,
  deny: HTMLButtonElement,
): ApprovalGate {
  let waiting:
    | { approvalId: string; settle(result: ToolResult): void; decided?: (approved: boolean) => void }
    | undefined;
  approve.disabled = deny.disabled = true;

  const decide = async (approved: boolean, reason = 'Denied in the demo.') => {
    const current = waiting;
    if (!current) return;
    waiting = undefined;
    approve.disabled = deny.disabled = true;
    current.decided?.(approved);
    current.settle(await side.decide(current.approvalId, approved ? { approved } : { approved, reason }));
  };
  approve.addEventListener('click', () => void decide(true));
  deny.addEventListener('click', () => void decide(false));

  return {
    ask(approvalId, decided) {
      // A newer request replaces an older one on the buttons; the older stays pending in the run.
      return new Promise((settle) => {
        waiting = decided ? { approvalId, settle, decided } : { approvalId, settle };
        approve.disabled = deny.disabled = false;
      });
    },
    withdraw(reason) {
      void decide(false, reason);
    },
  };
}
