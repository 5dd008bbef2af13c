import type { ApprovalPort, ApprovalRequest } from './approval.js';
import type { ApprovalDecision } from './approval-decision.js';

/**
 * An {@link ApprovalPort} kept in memory that remembers every request it was asked.
 *
 * @example
 * ```ts
 * import { type MemoryApprovalPort, createMemoryApprovalPort } from '@toolctx/core/memory';
 * const approval: MemoryApprovalPort = createMemoryApprovalPort();
 * approval.requests.length; // how many approvals were asked for
 * ```
 */
export interface MemoryApprovalPort extends ApprovalPort {
  readonly requests: readonly ApprovalRequest[];
}

/**
 * An approval port for tests and demos. `decide` answers each request; without it every request
 * is left `'pending'` (fail closed), to be resumed by the host.
 *
 * @example
 * ```ts
 * import { createMemoryApprovalPort } from '@toolctx/core/memory';
 * const approval = createMemoryApprovalPort({ decide: (req) => ({ approved: req.toolName !== 'delete_all' }) });
 * ```
 */
export function createMemoryApprovalPort(
  options: { decide?: (request: ApprovalRequest) => ApprovalDecision | 'pending' } = {},
): MemoryApprovalPort {
  const requests: ApprovalRequest[] = [];
  return {
    requests,
    async request(request) {
      requests.push(request);
      return options.decide ? options.decide(request) : 'pending';
    },
  };
}
