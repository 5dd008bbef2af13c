import { createIdbArtifactStore } from '@toolctx/browser';
import { connectWorker } from '@toolctx/browser/worker';
import { artifactScope } from '@toolctx/core';
import { localIdentity } from '../local-identity.js';
import { ARTIFACT_DB } from './artifact-db.js';
import { type CallHandle, rememberingArgs, type Side } from './side.js';

/**
 * The tools in a Web Worker of this page; artifacts in IndexedDB, read here from the same
 * database the Worker writes.
 */
export function createPageSide(): Side {
  const worker = new Worker(new URL('./tools.worker.ts', import.meta.url), { type: 'module', name: 'tools' });
  const { run, argsOf } = rememberingArgs(connectWorker(worker).startRun({ identity: localIdentity }));
  const store = createIdbArtifactStore({ name: ARTIFACT_DB });
  const scope = artifactScope(localIdentity); // the scope the runtime gives this identity's runs
  const cancels = new Map<string, AbortController>();

  return {
    runId: run.runId,
    events: run.events,
    run,
    call(tool, args): CallHandle {
      const callId = `call_${crypto.randomUUID()}`;
      const controller = new AbortController();
      cancels.set(callId, controller);
      const result = run
        .call({ tool, args, toolCallId: callId, signal: controller.signal })
        .finally(() => cancels.delete(callId));
      return { callId, result };
    },
    async cancel(callId) {
      cancels.get(callId)?.abort();
    },
    decide: (approvalId, decision) => run.resume(approvalId, decision),
    answer: (askId, answer) => run.answer(askId, answer),
    argsOf,
    async listArtifacts() {
      // Every artifact of this user's scope, so a reload still shows what earlier runs made.
      const { artifacts } = await store.list(scope, { limit: 50 });
      return artifacts.map(({ ref, kind, bytes, label }) =>
        label ? { ref, kind, bytes, label } : { ref, kind, bytes },
      );
    },
    async download(ref) {
      const found = await store.get(scope, ref);
      if (!found) throw new Error(`Artifact ${ref} is gone from IndexedDB (expired or deleted).`);
      const { meta, data } = found;
      const body = typeof data === 'string' || data instanceof Uint8Array ? data : JSON.stringify(data);
      return new Blob([body as BlobPart], { type: meta.mediaType });
    },
  };
}
