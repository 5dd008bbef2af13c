// A Worker module for the door conformance suite: the suite's tools served through serveInWorker,
// with artifacts in IndexedDB (shared with the page, which reads them back) and the suite's credentials.
import { createRuntime } from '@toolctx/core';
import { doorSuiteCredentials, doorSuiteTools } from '@toolctx/core/testing';
import { createIdbArtifactStore } from '../stores/idb-artifact-store.js';
import { serveInWorker } from './serve-in-worker.js';

serveInWorker(
  createRuntime({
    tools: doorSuiteTools(),
    artifacts: createIdbArtifactStore({ name: 'toolctx-door-suite' }),
    credentials: doorSuiteCredentials(),
  }),
);
