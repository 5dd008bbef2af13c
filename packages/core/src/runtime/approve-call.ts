import {
  type ApprovalRequest,
  approvalPending,
  argsHash,
  askApproval,
  createApprovalRequest,
} from '../approval/approval.js';
import { approvalDenial } from '../approval/approval-decision.js';
import { type ApprovalCheck, createApprovalTokens } from '../approval/approval-tokens.js';
import type { CallFacts, RunFacts } from '../context/create-context.js';
import type { ErrorInfo } from '../errors.js';
import type { AnyTool } from '../tools/define-tool.js';

/** The decision a resumed call carries: what the person approved, bound to the hash they were shown. */
export type Resumed = { approvalId: string; argsHash: string; reason?: string };

/** A call that may go on, holding its one-use token; `consume` uses it up against the final arguments. */
export type Approval = { ok: true; consume: (args: unknown) => Promise<ApprovalCheck> };

/**
 * The approval step of admission: a resumed call gets its token, any other call asks the port —
 * pending (handed to `pend`, which files it with the run), denied, or approved with a token. Loaded
 * on first use by the calls that need approval: most runs never ask for one, so it stays out of
 * the main bundle.
 */
export async function approveCall(
  run: RunFacts,
  tool: AnyTool,
  call: CallFacts,
  args: unknown,
  resumed: Resumed | undefined,
  pend: (request: ApprovalRequest) => void,
): Promise<Approval | { ok: false; error: ErrorInfo }> {
  const { services, log } = run;
  const { toolCallId, parentId } = call;
  if (resumed) {
    call.approval = resumed.reason
      ? { approvalId: resumed.approvalId, reason: resumed.reason }
      : { approvalId: resumed.approvalId };
    return issueToken(run, tool, call, resumed.argsHash);
  }

  const request = await createApprovalRequest({
    runId: run.runId,
    callId: toolCallId,
    toolName: tool.name,
    args,
  });
  const { approvalId } = request;
  log.emit('approval.requested', { tool: tool.name, approvalId }, toolCallId, parentId);
  const decision = await askApproval(services.approval!, request);
  if (decision === 'pending') {
    pend(request);
    log.emit('tool.pending', { tool: tool.name, reason: 'approval', id: approvalId }, toolCallId, parentId);
    return { ok: false, error: approvalPending(request) };
  }
  log.emit(
    'approval.decided',
    { tool: tool.name, approvalId, approved: decision.approved },
    toolCallId,
    parentId,
  );
  if (!decision.approved) return { ok: false, error: approvalDenial(tool.name, decision) };
  const approval = issueToken(run, tool, call, request.argsHash);
  call.approval = decision.reason ? { approvalId, reason: decision.reason } : { approvalId };
  return approval;
}

/**
 * Issues the token that covers this one execution, bound to the hash that was approved; consuming
 * it re-hashes the arguments the tool is about to get, so arguments changed since cannot run on it.
 */
function issueToken(run: RunFacts, tool: AnyTool, call: CallFacts, approvedHash: string): Approval {
  const { services, runId } = run;
  // Made with the runtime's first approval, and shared by its runs and doors from then on.
  services.approvals.tokens ??= createApprovalTokens();
  const tokens = services.approvals.tokens;
  const binding = { runId, callId: call.toolCallId, toolName: tool.name };
  const token = tokens.issue({ ...binding, argsHash: approvedHash });
  return {
    ok: true,
    consume: async (args) => tokens.consume(token, { ...binding, argsHash: await argsHash(args) }),
  };
}
