// The door conformance suite through the Web Worker door, in Chromium: the tools run in a
// dedicated Worker (door-suite-fixture.worker.ts); calls, aborts and events cross postMessage.
import { describeDoor, doorSuiteTenant, runDoorClient } from '@toolctx/core/testing';
import { afterAll } from 'vitest';
import { createIdbArtifactStore } from '../stores/idb-artifact-store.js';
import { connectWorker, type WorkerConnection } from './connect-worker.js';
import { webWorkerDoor } from './door.js';

// The page and the Worker share the origin's IndexedDB: what a tool saved there, the page reads
// with its caller's scope. The name matches door-suite-fixture.worker.ts.
const artifacts = createIdbArtifactStore({ name: 'toolctx-door-suite' });

// One Worker for the suite, so every client reaches the same tools (door_probe reads their record).
let connection: WorkerConnection | undefined;
const worker = () => {
  connection ??= connectWorker(
    new Worker(new URL('./door-suite-fixture.worker.ts', import.meta.url), { type: 'module' }),
  );
  return connection;
};
afterAll(() => connection?.terminate());

describeDoor('Web Worker', {
  supplies: { ...webWorkerDoor, artifacts: true, credentials: true, events: true, handles: true, asks: true },
  async connect(_tools, { caller }) {
    const run = worker().startRun({ identity: { tenant: doorSuiteTenant, principal: caller } });
    return runDoorClient(run, {
      readArtifact: async (ref) =>
        (await artifacts.get({ tenant: doorSuiteTenant, principal: caller, conversation: '' }, ref))?.data ??
        null,
    });
  },
});
