// The fair share of one identity: its calls in flight on the one-shot route and in MCP sessions,
// counted by the IdentityStateObject that counts its runs. A slot is a lease renewed while its call
// runs, so one held by an isolate that crashed lapses instead of being lost for good.
import type { Identity } from '@toolctx/core';
import type { Reply } from '../door/door-error.js';
import { identityStateOf } from './identity-slots.js';
import type { IdentityStateObject } from './identity-state.js';
import { defaultLimits } from './limits.js';

/**
 * `callLimit` of {@link index!createToolServer} (for `POST /calls`) and of the MCP routes (for
 * `tools/call` in a session): how many calls one identity (tenant and principal) has in flight at
 * once, counted across all its requests, sessions and isolates. Past it a call is refused with 429
 * and `Retry-After: 1`, before its tool runs; other identities are not affected. A call gives its
 * slot back when it settles, however it ends (a result, a failure, a cancel, its client hanging
 * up); if its isolate dies first, the slot lapses within `leaseMs`. Calls in a run are bounded by
 * the run's own limits (`maxCallsPerRun`, `maxRunsPerIdentity`) and are not counted here.
 *
 * @experimental The per-identity caps are new; their options may still change.
 *
 * @example
 * ```ts
 * import type { IdentityCallLimit } from '@toolctx/edge';
 * // The IdentityStateObject subclass bound as IDENTITY_STATE counts the calls, as it counts runs.
 * const callLimit: IdentityCallLimit = { binding: 'IDENTITY_STATE', maxCallsPerIdentity: 32 };
 * ```
 */
export interface IdentityCallLimit {
  /** The env binding of the `IdentityStateObject` subclass (the one `durableObjectRuns` counts runs with). */
  binding: string;
  /** Calls one identity has in flight at once; one more is a 429. Default 16. */
  maxCallsPerIdentity?: number;
  /**
   * How long a slot outlives a holder that stopped renewing it (an isolate that crashed or was
   * restarted mid-call): the holder renews it every third of this while its call runs. Default 30 s.
   */
  leaseMs?: number;
}

/** The default lease of a call's slot: an isolate's crash frees its calls' slots within 30 s. */
export const defaultCallLeaseMs = 30_000;

/**
 * A call's slot, held until `release()`: once (later calls change nothing), never rejecting. A door
 * awaits it before it answers the call, so a client that has its answer can call again at once.
 */
export interface CallSlot {
  release(): Promise<void>;
}

/**
 * Takes a slot for one call of `identity`, renewed while held: the slot, or the 429 to answer.
 * Each call gets a key of its own (never the caller's call id, which two calls could share).
 */
export async function takeCallSlot(
  limit: IdentityCallLimit,
  env: unknown,
  identity: Identity,
): Promise<Reply<CallSlot>> {
  const max = limit.maxCallsPerIdentity ?? defaultLimits.maxCallsPerIdentity;
  const leaseMs = limit.leaseMs ?? defaultCallLeaseMs;
  const counter = identityStateOf(identityStateBinding(env, limit.binding, 'callLimit'), identity);
  const id = crypto.randomUUID();
  // RPC's result type (each branch `& Disposable`) no longer narrows on `ok`; the value is a plain Reply.
  const taken = (await counter.acquire(id, max, 'call', leaseMs)) as Reply<unknown>;
  if (!taken.ok) return taken;
  // Renewal and release are best effort: a counter out of reach must not fail the call, and a
  // slot whose release was lost lapses with its lease.
  const renewal = setInterval(() => void counter.renew(id, leaseMs).catch(() => {}), leaseMs / 3);
  let released: Promise<void> | undefined;
  const release = () => {
    clearInterval(renewal);
    released ??= counter.release(id, 'call').catch(() => {});
    return released;
  };
  return { ok: true, value: { release } };
}

/** The env binding `binding` as the counter's namespace, or a TypeError naming `option` and the fix. */
export function identityStateBinding(
  env: unknown,
  binding: string,
  option: string,
): DurableObjectNamespace<IdentityStateObject> {
  const namespace = (env as Record<string, unknown> | undefined)?.[binding];
  if (!namespace || typeof (namespace as DurableObjectNamespace).idFromName !== 'function') {
    throw new TypeError(
      `${option}: env.${binding} is not a Durable Object namespace. Bind your IdentityStateObject subclass under that name (the one that counts runs), and pass the Worker's env.`,
    );
  }
  return namespace as DurableObjectNamespace<IdentityStateObject>;
}
