// tools.worker.ts — a module Worker: the tools run here, off the page's main thread, and keep
// their artifacts in IndexedDB, so they survive a reload.
import { createIdbArtifactStore } from '@toolctx/browser';
import { serveInWorker } from '@toolctx/browser/worker';
import { createRuntime } from '@toolctx/core';
import { tools } from './tools.js';

serveInWorker(createRuntime({ tools, artifacts: createIdbArtifactStore() }));
