import { requiresApproval } from '../approval/requires-approval.js';
import { type ErrorInfo, toErrorInfo } from '../errors.js';
import { budgetCheck } from '../ledger/budget-check.js';
import { allowedInPhase, phaseRefusal } from '../policy/phase.js';
import { trifectaDecision, trifectaRefusal } from '../policy/trifecta.js';
import type { CallingRun, CallState, GuardVerdict } from './call-state.js';
import { runCredentials } from './tool-context.js';

/** One check between valid arguments and execute, over the call's state; first refusal wins. */
type Guard = (run: CallingRun, call: CallState, args: unknown) => Promise<GuardVerdict>;

/**
 * The run's policy, met before the arguments are even validated: the phase allows the tool's
 * effect, and the run's budget is not spent.
 */
export async function policyRefusal(run: CallingRun, call: CallState): Promise<ErrorInfo | undefined> {
  const { tool } = call;
  if (!allowedInPhase(tool.effect, run.phase)) {
    return refuse(run, call, phaseRefusal(tool.name, tool.effect, run.phase));
  }
  const { maxUsd, ledger } = run;
  if (maxUsd === undefined || !ledger) return undefined;
  let spentUsd = 0;
  try {
    spentUsd = await ledger.totalUsd();
  } catch {
    // A ledger that cannot answer does not stop the run: it counts as nothing spent.
  }
  if (budgetCheck({ spentUsd, maxUsd }) !== 'exceeded') return undefined;
  run.log.emit('budget.exceeded', { spentUsd, maxUsd }, call.toolCallId, call.parentId);
  return {
    kind: 'budget-exceeded',
    message: `The run has spent $${spentUsd.toFixed(4)} of its $${maxUsd} budget; no further calls run.`,
    retryable: false,
    details: { spentUsd, maxUsd },
  };
}

const pass = (args: unknown): GuardVerdict => ({ ok: true, args });

/** Artifact refs in the arguments resolved to what the tool `wants`, in the run's scope. */
const resolveWanted: Guard = async (run, call, args) => {
  const { tool } = call;
  const store = run.services.artifacts;
  if (!tool.wants || !store) return pass(args);
  // Loaded on first use: only tools that declare wants need it (it stays out of the main bundle).
  const { resolveWants } = await import('../artifacts/resolve-wants.js');
  const resolution = await resolveWants(store, run.scope, tool.wants, args as Record<string, unknown>);
  const { toolCallId, parentId } = call;
  if (!resolution.ok) {
    const problems = (resolution.error.details?.problems ?? []) as { arg: string; reason: string }[];
    for (const { arg, reason } of problems)
      run.log.emit('artifact.refused', { arg, reason }, toolCallId, parentId);
    return resolution;
  }
  for (const [arg, meta] of Object.entries(resolution.wanted)) {
    run.log.emit('artifact.resolved', { ref: meta.ref, arg }, toolCallId, parentId);
  }
  call.wanted = Object.freeze(resolution.wanted);
  return pass(resolution.args);
};

/** The lethal trifecta: a send while the conversation holds private and untrusted data. */
const checkTrifecta: Guard = async (run, call, args) => {
  if (call.effect !== 'send') return pass(args);
  const decision = trifectaDecision(run.services.taint.get(run.taintKey), 'send', run.services.trifecta);
  if (decision === 'block') return { ok: false, error: refuse(run, call, trifectaRefusal(call.toolName)) };
  call.mustAsk = decision === 'approve';
  return pass(args);
};

/** A person's approval, when the tool, the trifecta or a resumed decision calls for one. */
const approve: Guard = async (run, call, args) => {
  if (!call.resumed && !call.mustAsk && !(await requiresApproval(call.tool.needsApproval, args))) {
    return pass(args);
  }
  // Loaded on first use: only calls that need approval ask for it (it stays out of the main bundle).
  const { approveCall } = await import('./approve-call.js');
  return approveCall(run, call, args);
};

/** The credential the tool `needs`, for the run's tenant and principal. */
const acquireCredential: Guard = async (run, call, args) => {
  const { tool, toolCallId, parentId } = call;
  if (!tool.needs) return pass(args);
  const { log } = run;
  const credential = tool.needs.credential;
  log.emit('credential.requested', { tool: tool.name, credential }, toolCallId, parentId);
  try {
    const attempt = call.invocation.beforeAttempts(tool.name);
    call.credential = await runCredentials(run, call, attempt).get(tool.needs);
  } catch (thrown) {
    // Cancelled while the person was asked to sign in: the pipeline says so.
    if (call.invocation.aborted) return { ok: false, error: call.invocation.aborted };
    const error = toErrorInfo(thrown);
    if (error.kind === 'authorization-required') {
      const id = String(error.details?.authorizationId);
      log.emit('tool.pending', { tool: tool.name, reason: 'authorization', id }, toolCallId, parentId);
    } else {
      const data = { tool: tool.name, credential, reason: error.message };
      log.emit('credential.failed', data, toolCallId, parentId);
    }
    return { ok: false, error };
  }
  log.emit('credential.acquired', { tool: tool.name, credential }, toolCallId, parentId);
  return pass(args);
};

/** Last, just before execute: the approval's one-use token, used up against the final arguments. */
const useApprovalToken: Guard = async (_run, call, args) => {
  if (!call.useToken) return pass(args);
  const check = await call.useToken(args);
  return check.ok ? pass(args) : check;
};

const guards: readonly Guard[] = [resolveWanted, checkTrifecta, approve, acquireCredential, useApprovalToken];

/** Runs the guards in order, each on the arguments the one before let through. */
export async function passGuards(run: CallingRun, call: CallState, args: unknown): Promise<GuardVerdict> {
  call.given = args;
  for (const guard of guards) {
    const verdict = await guard(run, call, args);
    if (!verdict.ok) return verdict;
    args = verdict.args;
  }
  return pass(args);
}

function refuse(run: CallingRun, call: CallState, error: ErrorInfo): ErrorInfo {
  const reason = String(error.details?.reason ?? error.message);
  run.log.emit('policy.refused', { tool: call.toolName, reason }, call.toolCallId, call.parentId);
  return error;
}
