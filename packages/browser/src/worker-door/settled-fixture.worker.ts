// A Worker module for the settled-call test: a tool whose artifact put is still in flight when the
// page cancels its call. Artifacts live in IndexedDB, shared with the page, which reads them back.
import { type ArtifactMeta, type ArtifactStore, createRuntime, defineTool } from '@toolctx/core';
import { z } from 'zod';
import { createIdbArtifactStore } from '../stores/idb-artifact-store.js';
import { serveInWorker } from './serve-in-worker.js';

const idb = createIdbArtifactStore({ name: 'toolctx-settled-door' });
/** Holds each put back until the call it belongs to has been cancelled. */
let cancelled: Promise<unknown> = Promise.resolve();
const store: ArtifactStore = {
  ...idb,
  put: async (scope, input) => {
    await cancelled;
    return idb.put(scope, input);
  },
};
let putting: Promise<ArtifactMeta> | undefined;

const tools = [
  defineTool({
    name: 'slow_save',
    description: 'Starts a put, says so, and waits: the page cancels it mid-put.',
    inputSchema: z.object({}),
    effect: 'write',
    execute: async (_args, ctx) => {
      cancelled = new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
      putting = ctx.artifacts.put({ kind: 'note', data: 'written too late' });
      ctx.progress({ message: 'putting' });
      return putting;
    },
  }),
  defineTool({
    name: 'late_put',
    description: "Waits for slow_save's put and says how it ended.",
    inputSchema: z.object({}),
    execute: async () => {
      if (!putting) return 'never started';
      return putting.then(
        () => 'stored',
        (error: unknown) => (error as { info?: { kind?: string } }).info?.kind ?? String(error),
      );
    },
  }),
];

serveInWorker(createRuntime({ tools, artifacts: store }));
