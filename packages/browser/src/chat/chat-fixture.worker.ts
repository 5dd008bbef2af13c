// A Worker module for the chat tests: the tools a page's chat runs through the Web Worker door.
import { createRuntime } from '@toolctx/core';
import { createIdbArtifactStore } from '../stores/idb-artifact-store.js';
import { serveInWorker } from '../worker-door/serve-in-worker.js';
import { chatFixtureTools } from './tools.fixture.js';

const tools = chatFixtureTools(
  { ran: 0, aborted: false },
  () => new Promise((resolve) => setTimeout(resolve, 150)),
);

// Every approval waits for the page, which resumes it through the run.
serveInWorker(
  createRuntime({
    tools,
    artifacts: createIdbArtifactStore({ name: 'chat-worker-artifacts' }),
    approval: { request: async () => 'pending' },
  }),
);
