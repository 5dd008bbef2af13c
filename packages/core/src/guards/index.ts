/**
 * `@toolctx/core/guards`: the checks the runtime runs around every call, each usable on its own
 * by a host that builds its own door — egress (a guarded fetch and the address classes it
 * refuses), phase, taint and the trifecta rule, approvals and their one-use tokens, credentials
 * access, artifact wants, the budget, the output budget (spill, then cut), teardown and the cache.
 *
 * @example
 * ```ts
 * import { checkEgress } from '@toolctx/core/guards';
 *
 * const check = checkEgress('http://169.254.169.254/latest/meta-data/');
 * if (!check.ok) console.log(check.error.message); // a cloud metadata service, never reachable
 * ```
 * @module
 */
export { approvalPending, argsHash, askApproval, createApprovalRequest } from '../approval/approval.js';
export { approvalDenial, isDecision } from '../approval/approval-decision.js';
export {
  type ApprovalBinding,
  type ApprovalCheck,
  type ApprovalTokens,
  type ApprovalTokensOptions,
  createApprovalTokens,
} from '../approval/approval-tokens.js';
export { requiresApproval } from '../approval/requires-approval.js';
export { resolveWants, type WantProblem, type WantsResolution } from '../artifacts/resolve-wants.js';
export { createSafeCache } from '../cache/safe-cache.js';
export { toolCacheKey } from '../cache/tool-cache-key.js';
export { type AuthorizationUrlHandler, credentialsAccess } from '../credentials/credentials-access.js';
export { budgetCheck } from '../ledger/budget-check.js';
export { cutUtf8, utf8Bytes } from '../output/cut-utf8.js';
export { type SpillInput, type SpillResult, spillAndCut } from '../output/spill-and-cut.js';
export { splitBudget } from '../output/split-budget.js';
export { toTranscript } from '../output/to-transcript.js';
export { checkEgress, type EgressCheck, type EgressRefusalReason } from '../policy/egress.js';
export { createGuardedFetch, type GuardedFetchOptions, MAX_REDIRECTS } from '../policy/guarded-fetch.js';
export { classifyIp, type IpClass } from '../policy/ip.js';
export { allowedInPhase, DEFAULT_PHASE, phaseRefusal } from '../policy/phase.js';
export {
  CLEAN_TAINT,
  callTaint,
  createTaintTracker,
  FULL_TAINT,
  mergeTaint,
  type TaintTracker,
} from '../policy/taint.js';
export { DEFAULT_TRIFECTA_MODE, trifectaDecision, trifectaRefusal } from '../policy/trifecta.js';
export {
  createTeardownRegistry,
  type TeardownFailed,
  type TeardownFired,
  type TeardownRegistration,
  type TeardownRegistry,
  type TeardownRegistryOptions,
} from '../teardown/teardown-registry.js';
