import { approvalPending, argsHash, askApproval, createApprovalRequest } from '../approval/approval.js';
import { approvalDenial } from '../approval/approval-decision.js';
import { createApprovalTokens } from '../approval/approval-tokens.js';
import { type ErrorInfo, toErrorInfo } from '../errors.js';
import type { CallingRun, CallState, GuardVerdict } from './call-state.js';

/**
 * The approval guard's work: a resumed call gets its token, any other call asks the port —
 * pending (filed with the run's approvals), denied, or approved with a token. Loaded on first use
 * by the calls that need approval: most runs never ask for one, so it stays out of the main bundle.
 */
export async function approveCall(run: CallingRun, call: CallState, args: unknown): Promise<GuardVerdict> {
  const { log } = run;
  const { toolCallId, parentId, toolName, resumed } = call;
  if (resumed) {
    call.approval = resumed.reason
      ? { approvalId: resumed.approvalId, reason: resumed.reason }
      : { approvalId: resumed.approvalId };
    issueToken(run, call, resumed.argsHash);
    return { ok: true, args };
  }

  const request = await createApprovalRequest({ runId: run.runId, callId: toolCallId, toolName, args });
  const { approvalId } = request;
  log.emit('approval.requested', { tool: toolName, approvalId }, toolCallId, parentId);
  let decision = await askApproval(run.services.approval!, request);
  if (decision === 'pending' && run.decidePending) decision = await askApproval(run.decidePending, request);
  // Cancelled while it waited: whatever the answer, the call is over and nothing is filed.
  const { aborted } = call.invocation;
  if (aborted) return { ok: false, error: aborted };
  if (decision === 'pending') {
    try {
      run.approvals.file(request, call, call.given);
    } catch (thrown) {
      return { ok: false, error: notKept(toolName, thrown) };
    }
    log.emit('tool.pending', { tool: toolName, reason: 'approval', id: approvalId }, toolCallId, parentId);
    return { ok: false, error: approvalPending(request, run.services.door.decides) };
  }
  const decided = { tool: toolName, approvalId, approved: decision.approved };
  log.emit('approval.decided', decided, toolCallId, parentId);
  if (!decision.approved) return { ok: false, error: approvalDenial(toolName, decision) };
  issueToken(run, call, request.argsHash);
  call.approval = decision.reason ? { approvalId, reason: decision.reason } : { approvalId };
  return { ok: true, args };
}

/**
 * The failure of a call that would wait when the run's pending-approval store refused to keep it
 * (a durable store that is full or down): the call fails now, since a decision could not find it.
 * What the store said is not passed on to the caller (it may name the storage's internals); its
 * class name tells faults apart.
 */
function notKept(toolName: string, thrown: unknown): ErrorInfo {
  return {
    kind: 'internal',
    message: `"${toolName}" needs a person's approval, but the run could not keep the call while it waits (its pending-approval store failed). Nothing ran; call it again later.`,
    exception: toErrorInfo(thrown).exception ?? 'Error',
    retryable: true,
  };
}

/**
 * Issues the token that covers this one execution, bound to the hash that was approved; using it
 * re-hashes the arguments the tool is about to get, so arguments changed since cannot run on it.
 */
function issueToken(run: CallingRun, call: CallState, approvedHash: string): void {
  run.approvals.tokens ??= createApprovalTokens();
  const tokens = run.approvals.tokens;
  const binding = { runId: run.runId, callId: call.toolCallId, toolName: call.toolName };
  const token = tokens.issue({ ...binding, argsHash: approvedHash });
  call.useToken = async (args) => tokens.consume(token, { ...binding, argsHash: await argsHash(args) });
}
