import type { ApprovalRequest } from '../approval/approval.js';
import { requiresApproval } from '../approval/requires-approval.js';
import { type CallFacts, type RunFacts, runCredentials } from '../context/create-context.js';
import { type ErrorInfo, toErrorInfo } from '../errors.js';
import { budgetCheck } from '../ledger/budget-check.js';
import { allowedInPhase, phaseRefusal } from '../policy/phase.js';
import { trifectaDecision, trifectaRefusal } from '../policy/trifecta.js';
import type { AnyTool } from '../tools/define-tool.js';
import type { Approval, Resumed } from './approve-call.js';

/** A call the guards let through, with its arguments as the tool will get them. */
export type Admission = { ok: true; args: unknown } | { ok: false; error: ErrorInfo };

/**
 * The policy a call meets before it runs, first refusal wins: phase, run budget. (Argument
 * validation happens between these and the rest, in the run.)
 */
export function admitPolicy(
  run: RunFacts,
  tool: AnyTool,
  call: CallFacts,
  maxUsd: number | undefined,
): ErrorInfo | undefined | Promise<ErrorInfo | undefined> {
  if (!allowedInPhase(tool.effect, run.phase)) {
    return refuse(run, tool, phaseRefusal(tool.name, tool.effect, run.phase), call);
  }
  if (maxUsd === undefined || !run.ledger) return undefined;
  return checkBudget(run, call, maxUsd);
}

async function checkBudget(run: RunFacts, call: CallFacts, maxUsd: number): Promise<ErrorInfo | undefined> {
  const spentUsd = await safeTotal(run);
  if (budgetCheck({ spentUsd, maxUsd }) !== 'exceeded') return undefined;
  run.log.emit('budget.exceeded', { spentUsd, maxUsd }, call.toolCallId, call.parentId);
  return {
    kind: 'budget-exceeded',
    message: `The run has spent $${spentUsd.toFixed(4)} of its $${maxUsd} budget; no further calls run.`,
    retryable: false,
    details: { spentUsd, maxUsd },
  };
}

/**
 * The guards between valid arguments and execute: artifact refs resolved (`wants`), the lethal
 * trifecta, approval, credentials — and last, the approval token consumed. A request the port
 * leaves pending is handed to `pend`, which files it with the run.
 */
export async function admitCall(
  run: RunFacts,
  tool: AnyTool,
  call: CallFacts,
  args: unknown,
  resumed: Resumed | undefined,
  pend: (request: ApprovalRequest) => void,
): Promise<Admission> {
  const { services, log } = run;
  const { toolCallId, parentId } = call;
  if (tool.wants && services.artifacts) {
    // Loaded on first use: only tools that declare wants need it (it stays out of the main bundle).
    const { resolveWants } = await import('../artifacts/resolve-wants.js');
    const resolution = await resolveWants(
      services.artifacts,
      run.scope,
      tool.wants,
      args as Record<string, unknown>,
    );
    if (!resolution.ok) {
      const problems = (resolution.error.details?.problems ?? []) as { arg: string; reason: string }[];
      for (const problem of problems) {
        log.emit('artifact.refused', { arg: problem.arg, reason: problem.reason }, toolCallId, parentId);
      }
      return resolution;
    }
    for (const [arg, meta] of Object.entries(resolution.wanted)) {
      log.emit('artifact.resolved', { ref: meta.ref, arg }, toolCallId, parentId);
    }
    args = resolution.args;
    call.wanted = Object.freeze(resolution.wanted);
  }

  let mustAsk = false;
  if (tool.effect === 'send') {
    const decision = trifectaDecision(services.taint.get(run.taintKey), 'send', services.trifecta);
    if (decision === 'block')
      return { ok: false, error: refuse(run, tool, trifectaRefusal(tool.name), call) };
    mustAsk = decision === 'approve';
  }

  let approval: Approval | undefined;
  if (resumed || mustAsk || (await requiresApproval(tool.needsApproval, args))) {
    // Loaded on first use: only calls that need approval ask for it (it stays out of the main bundle).
    const { approveCall } = await import('./approve-call.js');
    const approved = await approveCall(run, tool, call, args, resumed, pend);
    if (!approved.ok) return approved;
    approval = approved;
  }

  if (tool.needs) {
    const credential = tool.needs.credential;
    log.emit('credential.requested', { tool: tool.name, credential }, toolCallId, parentId);
    try {
      call.credential = await runCredentials(run).get(tool.needs);
      log.emit('credential.acquired', { tool: tool.name, credential }, toolCallId, parentId);
    } catch (thrown) {
      const error = toErrorInfo(thrown);
      if (error.kind === 'authorization-required') {
        const id = String(error.details?.authorizationId);
        log.emit('tool.pending', { tool: tool.name, reason: 'authorization', id }, toolCallId, parentId);
      } else {
        log.emit(
          'credential.failed',
          { tool: tool.name, credential, reason: error.message },
          toolCallId,
          parentId,
        );
      }
      return { ok: false, error };
    }
  }

  if (approval) {
    const check = await approval.consume(args);
    if (!check.ok) return check;
  }
  return { ok: true, args };
}

function refuse(run: RunFacts, tool: AnyTool, error: ErrorInfo, call?: CallFacts): ErrorInfo {
  const reason = String(error.details?.reason ?? error.message);
  run.log.emit('policy.refused', { tool: tool.name, reason }, call?.toolCallId, call?.parentId);
  return error;
}

async function safeTotal(run: RunFacts): Promise<number> {
  try {
    return await run.ledger!.totalUsd();
  } catch {
    return 0;
  }
}
