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
