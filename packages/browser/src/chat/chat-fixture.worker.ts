// A Worker module for the chat tests: the tools a page's chat runs through the Web Worker door.
import { createRuntime } from '@toolctx/core';
import { createIdbArtifactStore } from '../stores/idb-artifact-store.js';
import { serveInWorker } from '../worker-door/serve-in-worker.js';
import { chatFixtureTools } from './tools.fixture.js';

// getCity waits until the page says go (on this channel), so the page sees its progress first.
const go = new BroadcastChannel('chat-fixture-go');
const tools = chatFixtureTools(
  { ran: 0, aborted: false },
  () => new Promise((resolve) => go.addEventListener('message', resolve, { once: true })),
);

// Every approval waits for the page, which resumes it through the run.
serveInWorker(
  createRuntime({
    tools,
    artifacts: createIdbArtifactStore({ name: 'chat-worker-artifacts' }),
    approval: { request: async () => 'pending' },
  }),
);
