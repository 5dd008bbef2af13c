import { ToolctxError } from '../errors.js';
import type { ArtifactLimits } from './types.js';

/** What a scope holds now, for the per-scope caps. */
export interface ScopeTotals {
  count: number;
  bytes: number;
}

/**
 * Checks retention limits once, when a store is made: each must be a whole number ≥ 0.
 *
 * @example
 * ```ts
 * import { checkArtifactLimits } from '@toolctx/core/ports';
 * const limits = checkArtifactLimits({ maxBytesPerScope: 50_000_000 });
 * ```
 */
export function checkArtifactLimits(limits: ArtifactLimits): Readonly<ArtifactLimits> {
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
      throw new ToolctxError(
        'invalid-argument',
        `Artifact limit "${name}" must be a whole number ≥ 0, got ${value}.`,
      );
    }
  }
  return Object.freeze({ ...limits });
}

/**
 * Refuses a payload larger than `maxArtifactBytes` (a typed `quota-exceeded` error). Every store
 * calls it before storing anything.
 *
 * @example
 * ```ts
 * import { admitArtifactSize } from '@toolctx/core/ports';
 * admitArtifactSize({ maxArtifactBytes: 1024 }, 2048); // throws quota-exceeded
 * ```
 */
export function admitArtifactSize(limits: ArtifactLimits, bytes: number): void {
  if (limits.maxArtifactBytes !== undefined && bytes > limits.maxArtifactBytes) {
    throw quota(`The artifact is ${bytes} bytes; the limit is ${limits.maxArtifactBytes}.`, {
      limit: 'maxArtifactBytes',
      max: limits.maxArtifactBytes,
      requested: bytes,
    });
  }
}

/**
 * Refuses a put that would pass the scope's count or byte cap (a typed `quota-exceeded` error).
 * Call it as late as the store can, right before writing, so concurrent puts cannot both slip under.
 *
 * @example
 * ```ts
 * import { admitToScope } from '@toolctx/core/ports';
 * admitToScope({ maxCountPerScope: 10 }, { count: 10, bytes: 0 }, 5); // throws quota-exceeded
 * ```
 */
export function admitToScope(limits: ArtifactLimits, totals: ScopeTotals, bytes: number): void {
  if (limits.maxCountPerScope !== undefined && totals.count + 1 > limits.maxCountPerScope) {
    throw quota(
      `This scope already holds ${totals.count} artifacts; the limit is ${limits.maxCountPerScope}.`,
      {
        limit: 'maxCountPerScope',
        max: limits.maxCountPerScope,
        used: totals.count,
      },
    );
  }
  if (limits.maxBytesPerScope !== undefined && totals.bytes + bytes > limits.maxBytesPerScope) {
    throw quota(
      `This scope holds ${totals.bytes} bytes; ${bytes} more would pass the limit of ${limits.maxBytesPerScope}.`,
      { limit: 'maxBytesPerScope', max: limits.maxBytesPerScope, used: totals.bytes, requested: bytes },
    );
  }
}

function quota(message: string, details: Record<string, unknown>): ToolctxError {
  return new ToolctxError(
    'quota-exceeded',
    `${message} Nothing was stored; delete artifacts or store less.`,
    {
      details,
    },
  );
}
