import type { ErrorInfo } from '../errors.js';

/**
 * Where a run stands: `plan` may only look (read tools), `act` may change and send. A run starts
 * in `act` unless told otherwise, and a child call inherits its parent's phase.
 */
export type Phase = 'plan' | 'act';

/**
 * The phase a run is in when none is given.
 */
export const DEFAULT_PHASE: Phase = 'act';

/**
 * What a tool does to the world: `read` (the default) looks, `write` changes state, `send` can
 * move data out (egress).
 */
export type Effect = 'read' | 'write' | 'send';

/**
 * Whether a tool with this effect may be listed and called in this phase: `plan` allows only
 * `read`, `act` allows everything.
 */
export function allowedInPhase(effect: Effect = 'read', phase: Phase = DEFAULT_PHASE): boolean {
  return phase === 'act' || effect === 'read';
}

/**
 * The refusal for a call {@link allowedInPhase} rejects: kind `policy-refused`, with the tool,
 * its effect and the phase in `details` and a message that says how to proceed.
 */
export function phaseRefusal(toolName: string, effect: Effect, phase: Phase): ErrorInfo {
  return {
    kind: 'policy-refused',
    message:
      `\`${toolName}\` is a ${effect} tool and the run is in the ${phase} phase, which allows only read tools. ` +
      "Finish planning, then call it in a run started with phase: 'act'.",
    retryable: false,
    details: { policy: 'phase', reason: 'effect-not-allowed-in-phase', toolName, effect, phase },
  };
}
