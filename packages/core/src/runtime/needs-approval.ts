import { requiresApproval } from '../approval/requires-approval.js';
import type { CallRequest } from '../context/types.js';
import { allowedInPhase } from '../policy/phase.js';
import { trifectaDecision } from '../policy/trifecta.js';
import { validate } from '../tools/schema.js';
import type { CallingRun } from './call-state.js';

/**
 * Whether a call of `request.tool` with `request.args` would stop to ask for approval in this run:
 * the tool's `needsApproval` on its validated arguments, or a send the trifecta rule makes ask. The
 * approval port is not asked and nothing is recorded. A call that could not start (an unknown tool,
 * one its phase refuses, invalid arguments) asks nothing: it fails on its own when made. For
 * `toAiSdkTools`, whose SDK asks before it executes; kept out of the runtime, which asks as it calls,
 * so the main entry does not carry it.
 */
export async function callNeedsApproval(
  run: CallingRun,
  request: Pick<CallRequest, 'tool' | 'args'>,
): Promise<boolean> {
  const tool = run.services.tools.get(request.tool);
  if (!tool || run.ended || !allowedInPhase(tool.effect, run.phase)) return false;
  const parsed = await validate(tool.inputSchema, request.args);
  if (parsed.issues) return false;
  if (await requiresApproval(tool.needsApproval, parsed.value)) return true;
  if (tool.effect !== 'send') return false;
  return trifectaDecision(run.services.taint.get(run.taintKey), 'send', run.services.trifecta) === 'approve';
}
