// server.ts — the same tools behind the HTTP+SSE door on Node, served by @hono/node-server. Runs
// live in this process's memory (no `runs` option), so nothing here needs Cloudflare.
import { serve } from '@hono/node-server';
import { createRuntime } from '@toolctx/core';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { createToolServer } from '@toolctx/edge';
import { tools } from './tools.js';

const token = process.env.TOOLCTX_TOKEN;

// Made once: on Node each request has an env of its own, so runtimeFor returns this one.
// `summarise` keeps its artifacts in memory (GET /artifacts/:ref serves them) while the process runs.
const runtime = createRuntime({ tools, artifacts: createMemoryArtifactStore() });

const app = createToolServer({
  runtimeFor: () => runtime,
  // Identity comes only from here, never from a request body; null answers 401.
  authenticate: (request) =>
    token && request.headers.get('authorization') === `Bearer ${token}`
      ? { tenant: 'acme', principal: request.headers.get('x-user') ?? 'anonymous' }
      : null,
});

serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 8787 }, (info) =>
  console.log(`toolctx on http://127.0.0.1:${info.port}`),
);
