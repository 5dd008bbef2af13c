import type { ApprovalDecision, ToolResult } from '@toolctx/core';
import type { Side } from './side.js';

/** The approvals waiting for the column's Approve and Deny buttons, answered oldest first. */
export interface ApprovalGate {
  /**
   * Queues `approvalId` for the buttons; resolves with the decided call's result. `decided` hears
   * the person's answer at once, before the call has run.
   */
  ask(approvalId: string, decided?: (approved: boolean) => void): Promise<ToolResult>;
  /**
   * Queues `approvalId` for the buttons, for an asker that carries an approval to the run itself
   * (the agent, through the AI SDK's `tool-approval-response`): resolves with the person's decision.
   * An approval is left for the asker to resume; a denial is also given to the run at once, so the
   * call's line settles without waiting for the AI SDK to run another tool.
   */
  hear(approvalId: string): Promise<ApprovalDecision>;
  /** Denies `approvalId` if it still waits (the agent that asked was stopped). */
  withdraw(approvalId: string, reason: string): void;
  /**
   * Decides `approvalId` from its own status line (the widget's Approve and Deny): whoever asked
   * hears the result; one nobody here waits for (asked before a reload) goes to the run directly.
   */
  answer(approvalId: string, decision: ApprovalDecision): Promise<void>;
}

interface Waiting {
  approvalId: string;
  settle?(result: ToolResult): void;
  decided?: (approved: boolean) => void;
  /** Set when the asker resumes an approved call itself. */
  heard?(decision: ApprovalDecision): void;
}

/**
 * Both the Publish button and the agent wait here, so whoever asked, a person answers the same
 * way: the decision goes to the run (`run.resume` or `POST /approvals/:id`). A queue, so a second
 * request (Publish pressed while the agent waits) never leaves the first unanswerable.
 */
export function createApprovalGate(
  side: Side,
  approve: HTMLButtonElement,
  deny: HTMLButtonElement,
): ApprovalGate {
  const queue: Waiting[] = [];
  const sync = () => {
    approve.disabled = deny.disabled = queue.length === 0;
  };
  sync();

  const decide = async (waiting: Waiting | undefined, approved: boolean, reason = 'Denied in the demo.') => {
    if (!waiting || !queue.includes(waiting)) return;
    queue.splice(queue.indexOf(waiting), 1);
    sync();
    waiting.decided?.(approved);
    const decision = approved ? { approved } : { approved, reason };
    waiting.heard?.(decision);
    if (waiting.heard && approved) return;
    const result = await side.decide(waiting.approvalId, decision);
    waiting.settle?.(result);
  };
  const waitingFor = (approvalId: string) => queue.find((waiting) => waiting.approvalId === approvalId);
  approve.addEventListener('click', () => void decide(queue[0], true));
  deny.addEventListener('click', () => void decide(queue[0], false));

  return {
    ask(approvalId, decided) {
      return new Promise((settle) => {
        queue.push(decided ? { approvalId, settle, decided } : { approvalId, settle });
        sync();
      });
    },
    hear(approvalId) {
      return new Promise((heard) => {
        queue.push({ approvalId, heard });
        sync();
      });
    },
    withdraw(approvalId, reason) {
      void decide(waitingFor(approvalId), false, reason);
    },
    async answer(approvalId, decision) {
      const waiting = waitingFor(approvalId);
      if (waiting) return decide(waiting, decision.approved, decision.reason);
      await side.decide(approvalId, decision);
    },
  };
}
