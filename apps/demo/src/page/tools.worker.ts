// The page side's tools: the same tools as the Cloudflare Worker's, served to the page from this
// Web Worker, with artifacts in IndexedDB.
import { createIdbArtifactStore } from '@toolctx/browser';
import { serveInWorker } from '@toolctx/browser/worker';
import { createRuntime } from '@toolctx/core';
import { createMemoryApprovalPort, staticCredentials } from '@toolctx/core/memory';
import { DEMO_CREDENTIAL, demoTools } from '../tools.js';
import { ARTIFACT_DB } from './artifact-db.js';
import { pageKey } from './page-key.js';

const runtime = createRuntime({
  tools: demoTools,
  artifacts: createIdbArtifactStore({ name: ARTIFACT_DB }),
  credentials: staticCredentials({ [DEMO_CREDENTIAL]: await pageKey() }),
  // Every approval waits for the person at the page, who answers with Approve or Deny (run.resume).
  approval: createMemoryApprovalPort(),
});

serveInWorker(runtime);
