export { checkEgress, type EgressCheck, type EgressPolicy, type EgressRefusalReason } from './egress.js';
export { createGuardedFetch, type GuardedFetchOptions, MAX_REDIRECTS } from './guarded-fetch.js';
export { classifyIp, type IpClass } from './ip.js';
export { allowedInPhase, DEFAULT_PHASE, type Effect, type Phase, phaseRefusal } from './phase.js';
export {
  CLEAN_TAINT,
  callTaint,
  createTaintTracker,
  FULL_TAINT,
  mergeTaint,
  type ResultTaint,
  type Taint,
  type TaintLeg,
  type TaintReads,
  type TaintTracker,
} from './taint.js';
export { DEFAULT_TRIFECTA_MODE, type TrifectaMode, trifectaDecision, trifectaRefusal } from './trifecta.js';
