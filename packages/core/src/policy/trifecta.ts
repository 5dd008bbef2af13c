import type { ErrorInfo } from '../errors.js';
import type { Effect } from './phase.js';
import type { Taint } from './taint.js';

/**
 * What `security.trifecta` does when a `send` tool is called in a conversation that has read
 * private data and seen untrusted content (the "lethal trifecta": the untrusted content may have
 * told the model to send the private data out). `block` is the default.
 */
export type TrifectaMode = 'block' | 'approve' | 'allow';

/**
 * The trifecta mode when `security.trifecta` is not set.
 */
export const DEFAULT_TRIFECTA_MODE: TrifectaMode = 'block';

/**
 * Decides a call under the trifecta rule: only a `send` tool while both legs are armed is
 * affected, and then the mode decides; everything else is allowed.
 */
export function trifectaDecision(
  taint: Taint,
  effect: Effect = 'read',
  mode: TrifectaMode = DEFAULT_TRIFECTA_MODE,
): 'allow' | 'block' | 'approve' {
  if (effect !== 'send' || !(taint.private && taint.untrusted)) return 'allow';
  return mode === 'approve' || mode === 'allow' ? mode : 'block';
}

/**
 * The refusal for a call {@link trifectaDecision} blocked: kind `policy-refused`, naming both legs
 * and the `security.trifecta` setting that changes the outcome.
 */
export function trifectaRefusal(toolName: string): ErrorInfo {
  return {
    kind: 'policy-refused',
    message:
      `\`${toolName}\` can send data out, and this conversation has both read private data (the private leg) ` +
      'and seen untrusted content (the untrusted leg), so untrusted instructions could leak the private data. ' +
      "The call is blocked. To ask a person instead, set security.trifecta: 'approve' in createRuntime; " +
      "'allow' turns the check off.",
    retryable: false,
    details: {
      policy: 'trifecta',
      reason: 'private-and-untrusted',
      legs: ['private', 'untrusted'],
      toolName,
      setting: 'security.trifecta',
    },
  };
}
