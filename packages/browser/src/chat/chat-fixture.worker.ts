// A Worker module for the chat tests: the tools a page's chat runs through the Web Worker door.
import { createRuntime, defineTool } from '@toolctx/core';
import { z } from 'zod';
import { createIdbArtifactStore } from '../stores/idb-artifact-store.js';
import { serveInWorker } from '../worker-door/serve-in-worker.js';

let abortSeen = false;

const tools = [
  defineTool({
    name: 'getCity',
    description: "The user's city.",
    inputSchema: z.object({ country: z.string() }),
    execute: async ({ country }, ctx) => {
      ctx.progress({ message: `looking up a city in ${country}`, done: 1, total: 2 });
      await new Promise((resolve) => setTimeout(resolve, 150));
      return { city: country === 'PT' ? 'Lisbon' : 'Paris' };
    },
  }),
  defineTool({
    name: 'saveNote',
    description: 'Saves a note.',
    inputSchema: z.object({ text: z.string() }),
    effect: 'write',
    execute: async ({ text }, ctx) => (await ctx.artifacts.put({ kind: 'note', data: text })).ref,
  }),
  defineTool({
    name: 'sendMail',
    description: 'Sends a mail.',
    inputSchema: z.object({ to: z.string() }),
    effect: 'send',
    needsApproval: true,
    execute: ({ to }) => `sent to ${to}`,
  }),
  defineTool({
    name: 'watch',
    description: 'Runs until cancelled.',
    inputSchema: z.object({}),
    execute: async (_args, ctx) => {
      ctx.progress({ message: 'watching' });
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      abortSeen = true;
      return 'stopped';
    },
  }),
  defineTool({
    name: 'was_aborted',
    description: 'Says whether watch saw its signal fire.',
    inputSchema: z.object({}),
    execute: () => abortSeen,
  }),
];

// Every approval waits for the page, which resumes it through the run.
serveInWorker(
  createRuntime({
    tools,
    artifacts: createIdbArtifactStore({ name: 'chat-worker-artifacts' }),
    approval: { request: async () => 'pending' },
  }),
);
