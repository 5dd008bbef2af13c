import type { ErrorInfo } from '../errors.js';
import { randomId } from '../random-id.js';

/**
 * What an approval token is bound to: this run, this call, this tool, these arguments. Runs are
 * compared exactly, so a token issued with no run (an MCP call) fits no run, and the reverse.
 */
export interface ApprovalBinding {
  runId?: string;
  callId: string;
  toolName: string;
  argsHash: string;
}

/** The outcome of {@link ApprovalTokens.consume}. */
export type ApprovalCheck = { ok: true } | { ok: false; error: ErrorInfo };

/**
 * One-use approval tokens; see {@link createApprovalTokens}. Pending approvals are not kept here:
 * each run keeps them in its `PendingApprovalStore`, and its tokens beside them, for the run only.
 */
export interface ApprovalTokens {
  /** Issues a random one-use token bound to the call. */
  issue(binding: ApprovalBinding): string;
  /** Uses up a token. Any attempt on a known token uses it up, so a refused attempt cannot be retried. */
  consume(token: string, binding: ApprovalBinding): ApprovalCheck;
}

/**
 * Options of {@link createApprovalTokens}.
 */
export interface ApprovalTokensOptions {
  /** How long an issued token stays usable; 10 minutes unless set. */
  ttlMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

interface IssuedToken {
  binding: ApprovalBinding;
  expiresAt: number;
  used: boolean;
}

/**
 * A registry of one-use approval tokens; each run keeps one. The runtime issues a token when a
 * decision approves a call and consumes it just before execute; the token is bound strictly to
 * (run, call, tool, argument hash), so it cannot cover another call, a changed argument or a
 * second execution.
 */
export function createApprovalTokens(options: ApprovalTokensOptions = {}): ApprovalTokens {
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  const tokens = new Map<string, IssuedToken>();

  return {
    issue(binding) {
      const token = randomId('apt_');
      const { runId, callId, toolName, argsHash } = binding;
      tokens.set(token, {
        binding: { runId, callId, toolName, argsHash },
        expiresAt: now() + ttlMs,
        used: false,
      });
      return token;
    },

    consume(token, binding) {
      const issued = typeof token === 'string' ? tokens.get(token) : undefined;
      if (!issued) {
        return refuse('unknown-token', binding, 'The approval token is not one this runtime issued.');
      }
      const { used, expiresAt } = issued;
      issued.used = true;
      if (used)
        return refuse(
          'token-used',
          binding,
          'The approval token was already used; each covers one execution.',
        );
      if (now() >= expiresAt) return refuse('token-expired', binding, 'The approval token has expired.');
      const bound = issued.binding;
      if (bound.runId !== binding.runId)
        return refuse('other-run', binding, 'The approval was given in another run.');
      if (bound.callId !== binding.callId)
        return refuse('other-call', binding, 'The approval was given for another call.');
      if (bound.toolName !== binding.toolName) {
        return refuse('other-tool', binding, `The approval was given for \`${bound.toolName}\`.`);
      }
      if (bound.argsHash !== binding.argsHash) {
        return refuse('args-changed', binding, 'The arguments changed after they were approved.');
      }
      return { ok: true };
    },
  };
}

function refuse(reason: string, binding: ApprovalBinding, why: string): ApprovalCheck {
  const details: Record<string, unknown> = { callId: binding.callId, toolName: binding.toolName };
  return {
    ok: false,
    error: invalid(
      reason,
      `\`${binding.toolName}\` cannot run on this approval: ${why} Ask for approval again for this call.`,
      details,
    ),
  };
}

function invalid(reason: string, message: string, details: Record<string, unknown>): ErrorInfo {
  return { kind: 'approval-invalid', message, retryable: false, details: { reason, ...details } };
}
