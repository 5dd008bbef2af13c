import type { Identity } from '@toolctx/core';
import type { IdentityStateObject } from './identity-state.js';
import { type ListedRun, summaryOf } from './run-list.js';
import type { RunRecord } from './run-log.js';

// The client side of IdentityStateObject, apart from the class so that durableObjectRuns (in the
// package's main entry) loads where `cloudflare:workers` does not exist.

/** The object that counts `identity`'s runs: its tenant and principal name it. */
export function identityStateOf(
  namespace: DurableObjectNamespace<IdentityStateObject>,
  identity: Identity,
): DurableObjectStub<IdentityStateObject> {
  return namespace.get(
    namespace.idFromName(JSON.stringify([identity.tenant ?? '', identity.principal ?? ''])),
  );
}

/**
 * A run host's `onFinished`: gives the run's slot back and keeps it listed until its host deletes
 * it, `retentionMs` after its end (best effort: a failed release is not the run's failure).
 */
export function releaseOnFinish(
  namespace: DurableObjectNamespace<IdentityStateObject>,
  retentionMs: number,
): (record: RunRecord) => void {
  return (record) =>
    void identityStateOf(namespace, record.owner)
      .finishRun(listedRunOf(record), (record.endedAt ?? Date.now()) + retentionMs)
      .catch(() => {});
}

/** What a run's record says of it in its identity's list. */
export function listedRunOf(record: RunRecord): ListedRun {
  return { ...summaryOf(record), owner: record.owner };
}
