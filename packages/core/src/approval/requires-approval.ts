/**
 * A tool's `needsApproval`: always, never, or a predicate on the call's arguments.
 *
 * @example
 * ```ts
 * import type { NeedsApproval } from '@toolctx/core';
 * const needsApproval: NeedsApproval<{ amount: number }> = (args) => args.amount > 100;
 * ```
 */
export type NeedsApproval<Args = unknown> = boolean | ((args: Args) => boolean | Promise<boolean>);

/**
 * Whether this call needs approval. Fails closed: a predicate that throws or returns anything
 * but `false` means yes.
 */
export async function requiresApproval<Args>(
  needsApproval: NeedsApproval<Args> | undefined,
  args: Args,
): Promise<boolean> {
  if (needsApproval === undefined || needsApproval === false) return false;
  if (typeof needsApproval !== 'function') return true;
  try {
    return (await needsApproval(args)) !== false;
  } catch {
    return true;
  }
}

/**
 * Whether a call of `tool` may stop to wait for a person's approval: it asks (always, or by a
 * predicate on its arguments), or it sends (the lethal-trifecta rule may make it ask). The one
 * statement of that rule, for the runtime's fast path and for hosts that bound waiting calls.
 *
 * @example
 * ```ts
 * import { type AnyTool, mayAskApproval } from '@toolctx/core';
 * declare const tool: AnyTool;
 * if (mayAskApproval(tool)) console.log(`${tool.name} may wait for a person`);
 * ```
 */
export function mayAskApproval(tool: {
  readonly needsApproval?: unknown;
  readonly effect?: string;
}): boolean {
  return Boolean(tool.needsApproval) || tool.effect === 'send';
}
