import type { Identity } from '@toolctx/core';
import type { IdentityRunsObject } from './identity-runs.js';

// The client side of IdentityRunsObject, apart from the class so that durableObjectRuns (in the
// package's main entry) loads where `cloudflare:workers` does not exist.

/** The object that counts `identity`'s runs: its tenant and principal name it. */
export function identityRunsOf(
  namespace: DurableObjectNamespace<IdentityRunsObject>,
  identity: Identity,
): DurableObjectStub<IdentityRunsObject> {
  return namespace.get(
    namespace.idFromName(JSON.stringify([identity.tenant ?? '', identity.principal ?? ''])),
  );
}

/** A run host's `onFinished`: gives the run's slot back (best effort: a failed release is not the run's failure). */
export function releaseOnFinish(
  namespace: DurableObjectNamespace<IdentityRunsObject>,
): (record: { runId: string; owner: Identity }) => void {
  return (record) =>
    void identityRunsOf(namespace, record.owner)
      .release(record.runId)
      .catch(() => {});
}
