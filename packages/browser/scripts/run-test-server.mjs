// The edge's real HTTP door (`createToolServer` from @toolctx/edge, runs in memory), mounted on the
// Chromium project's vite server for the remote-run client's tests: one implementation of the
// routes, the one a Worker or a Node host serves. hono's `app.fetch` is bridged to vite's Node
// request and response by @hono/node-server, as a Node host serves the door
// (packages/edge/src/http/node-host.node.test.ts).
//
// `/run-test/…` is the door (its routes as the edge README's table says: `POST /runs`,
// `POST /runs/:runId/calls` with or without `Prefer: respond-async`, the call handles, cancel,
// `POST /approvals/:id`, `GET /runs/:runId/events`, `GET /artifacts/:ref`, the asks); `/run-test-trimmed/…` is a second door whose
// runs keep only their last 4 events (`410 events-trimmed` before them). For the tests alone,
// outside both doors: `POST /run-test-gates/:key` lets a `gate` tool finish. What a crash does to
// a run (its calls settled as `interrupted` when its host wakes) has no stand-in here: it is
// tested under `wrangler dev` (test/e2e/reload-after-crash.test.ts).
import { getRequestListener } from '@hono/node-server';
import { createRuntime, defineTool } from '@toolctx/core';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { createMemoryRunDirectory, createToolServer } from '@toolctx/edge';
import { z } from 'zod';

/** Gates a `gate` tool waits on, by key: released ones resolve. */
const gates = new Map();
const gate = (key) => {
  let entry = gates.get(key);
  if (!entry) {
    let open;
    entry = { promise: new Promise((resolve) => (open = resolve)), open };
    gates.set(key, entry);
  }
  return entry;
};

const tools = [
  defineTool({
    name: 'count_words',
    description: 'Counts words.',
    inputSchema: z.object({ text: z.string() }),
    execute: ({ text }) => text.split(/\s+/).filter(Boolean).length,
  }),
  defineTool({
    name: 'gate',
    description: 'Reports, then finishes when the test releases its key, or fails when cancelled.',
    inputSchema: z.object({ key: z.string() }),
    execute: async ({ key }, ctx) => {
      ctx.progress({ message: `waiting for ${key}` });
      await Promise.race([
        gate(key).promise,
        new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
      ]);
      return `released ${key}`;
    },
  }),
  defineTool({
    name: 'pay',
    description: 'Needs approval.',
    inputSchema: z.object({ amount: z.number() }),
    effect: 'write',
    needsApproval: true,
    execute: ({ amount }) => ({ paid: amount }),
  }),
  defineTool({
    name: 'pick_day',
    description: 'Asks its user for a day.',
    inputSchema: z.object({}),
    execute: (_args, ctx) =>
      ctx.ask({
        message: 'Which day?',
        schema: {
          type: 'object',
          properties: { day: { type: 'string', enum: ['mon', 'tue'] } },
          required: ['day'],
        },
      }),
  }),
  defineTool({
    name: 'rows',
    description: 'Returns n rows: past about 700 its value is over the output budget, and spills.',
    inputSchema: z.object({ n: z.number() }),
    execute: ({ n }) => Array.from({ length: n }, (_, i) => ({ i, name: `row ${i}` })),
  }),
];

/** @returns {import('vite').Plugin} */
export function runTestServer() {
  // Approvals always wait: the door's POST /approvals/:id decides them.
  const runtime = createRuntime({
    tools,
    approval: { request: async () => 'pending' },
    artifacts: createMemoryArtifactStore(),
  });
  // The test page is the one caller: it sends no credentials, and every request is its identity.
  const authenticate = () => ({ tenant: 'browser-tests', principal: 'page' });
  const door = (runs) =>
    getRequestListener(createToolServer({ runtimeFor: () => runtime, runs, authenticate }).fetch);
  const doors = {
    '/run-test': door(createMemoryRunDirectory({ runtime })),
    '/run-test-trimmed': door(createMemoryRunDirectory({ runtime, maxEvents: 4 })),
  };
  return {
    name: 'toolctx-run-test-server',
    configureServer(server) {
      // Mounted under its prefix, connect hands the door the path without it (`/runs/…`).
      for (const [prefix, listener] of Object.entries(doors)) server.middlewares.use(prefix, listener);
      server.middlewares.use('/run-test-gates', (req, res, next) => {
        const key = /^\/([^/?]+)$/.exec(req.url ?? '')?.[1];
        if (req.method !== 'POST' || !key) return next();
        gate(decodeURIComponent(key)).open();
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    },
  };
}
