import type { ErrorInfo } from '../errors.js';

// Apart from approval.ts because run.resume checks a decision and denies at once, while asking
// for approval loads on first use: this is the part of approval the main bundle carries.

/** The answer to an `ApprovalRequest`. A `reason` is shown to the model, so keep it plain. */
export type ApprovalDecision = { approved: true; reason?: string } | { approved: false; reason?: string };

/**
 * Whether a value is an {@link ApprovalDecision}, for checking decisions that arrive over the wire.
 */
export function isDecision(value: unknown): value is ApprovalDecision {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { approved?: unknown }).approved === 'boolean' &&
    ['string', 'undefined'].includes(typeof (value as { reason?: unknown }).reason)
  );
}

/** A person's reason as a sentence the next one can follow: ended with a full stop if it has none. */
const sentence = (reason: string) => (/[.!?…]$/.test(reason.trim()) ? reason.trim() : `${reason.trim()}.`);

/**
 * The ErrorInfo of a denied call: kind `approval-denied`, with the decision's reason if any.
 */
export function approvalDenial(toolName: string, decision: ApprovalDecision): ErrorInfo {
  const details: Record<string, unknown> = { toolName };
  if (decision.reason) details.reason = decision.reason;
  return {
    kind: 'approval-denied',
    message:
      `\`${toolName}\` was not approved${decision.reason ? `: ${sentence(decision.reason)}` : '.'} ` +
      'Do not call it again unchanged; ask the user how to proceed.',
    retryable: false,
    details,
  };
}
