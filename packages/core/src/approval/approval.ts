import { canonicalJson, sha256Hex } from '../canonical-json.js';
import type { ErrorInfo } from '../errors.js';
import { randomId } from '../random-id.js';
import { type ApprovalDecision, isDecision } from './approval-decision.js';

/**
 * What a person (or a policy service) is asked to approve: one call of one tool with these
 * arguments. `args` are there to show; the decision is bound to `argsHash`.
 *
 * @example
 * ```ts
 * import type { ApprovalRequest } from '@toolctx/core';
 * const show = (req: ApprovalRequest) => `Allow ${req.toolName}(${JSON.stringify(req.args)})?`;
 * ```
 */
export interface ApprovalRequest {
  approvalId: string;
  runId?: string;
  callId: string;
  toolName: string;
  argsHash: string;
  args: unknown;
}

/**
 * Where approval requests go. A port may decide at once, or answer `'pending'` and let the host
 * resume the run later with `run.resume(approvalId, decision)`.
 *
 * @example
 * ```ts
 * import type { ApprovalPort } from '@toolctx/core';
 * const approveReads: ApprovalPort = {
 *   request: async (req) => (req.toolName.startsWith('read_') ? { approved: true } : 'pending'),
 * };
 * ```
 */
export interface ApprovalPort {
  /** Decides now, or answers `'pending'` to park the call until `run.resume(approvalId, decision)`. */
  request(request: ApprovalRequest): Promise<ApprovalDecision | 'pending'>;
}

/**
 * The hash a decision is bound to: SHA-256 of the canonical JSON of the arguments, so the same
 * arguments in another key order hash the same and any change hashes differently.
 */
export function argsHash(args: unknown): Promise<string> {
  // JSON has no undefined; give it a text of its own so it hashes apart from null.
  return sha256Hex(canonicalJson(args) ?? 'undefined');
}

/**
 * Builds the {@link ApprovalRequest} for a call: a fresh `apr_…` id and the hash of its arguments.
 */
export async function createApprovalRequest(call: {
  runId?: string;
  callId: string;
  toolName: string;
  args: unknown;
}): Promise<ApprovalRequest> {
  const request: ApprovalRequest = {
    approvalId: randomId('apr_'),
    callId: call.callId,
    toolName: call.toolName,
    argsHash: await argsHash(call.args),
    args: call.args,
  };
  if (call.runId !== undefined) request.runId = call.runId;
  return request;
}

/**
 * Asks a port, failing closed: a port that throws or answers something that is neither a decision
 * nor `'pending'` counts as a denial (its exception shows only by class name).
 */
export async function askApproval(
  port: ApprovalPort,
  request: ApprovalRequest,
): Promise<ApprovalDecision | 'pending'> {
  let answer: unknown;
  try {
    answer = await port.request(request);
  } catch (thrown) {
    const name = thrown instanceof Error ? thrown.name : typeof thrown;
    return { approved: false, reason: `The approval port failed with ${name}.` };
  }
  if (answer === 'pending') return answer;
  if (isDecision(answer)) return answer;
  return { approved: false, reason: 'The approval port gave no decision.' };
}

/**
 * The ErrorInfo a call returns while it waits for approval: kind `approval-pending`, with
 * `details.approvalId` for the host and `decides` (the door's way to decide) in its message. The
 * arguments are not included.
 */
export function approvalPending(
  request: ApprovalRequest,
  decides = 'The host resumes it with run.resume(approvalId, decision).',
): ErrorInfo {
  const details: Record<string, unknown> = {
    approvalId: request.approvalId,
    callId: request.callId,
    toolName: request.toolName,
  };
  if (request.runId !== undefined) details.runId = request.runId;
  return {
    kind: 'approval-pending',
    message: `\`${request.toolName}\` is waiting for approval (${request.approvalId}). ${decides}`,
    retryable: false,
    details,
  };
}
