export {
  type ApprovalDecision,
  type ApprovalPort,
  type ApprovalRequest,
  approvalDenial,
  approvalPending,
  argsHash,
  askApproval,
  createApprovalRequest,
  isDecision,
} from './approval.js';
export {
  type ApprovalBinding,
  type ApprovalCheck,
  type ApprovalResolution,
  type ApprovalTokens,
  type ApprovalTokensOptions,
  createApprovalTokens,
} from './approval-tokens.js';
export { createMemoryApprovalPort, type MemoryApprovalPort } from './memory-approval-port.js';
export { type NeedsApproval, requiresApproval } from './requires-approval.js';
