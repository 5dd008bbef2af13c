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
  // Identity comes only from here, never from a request body or a header the client picks; null
  // answers 401. One token, one principal: give each user a token of their own to tell them apart.
  authenticate: (request) =>
    token && request.headers.get('authorization') === `Bearer ${token}`
      ? { tenant: 'acme', principal: 'owner' }
      : null,
  // Against DNS rebinding, only these Host names are answered (any other is a 421): loopback, and
  // the name a proxy in front of this server forwards.
  allowedHosts: ['localhost', '127.0.0.1', '[::1]', 'tools.example.com'],
});

serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 8787 }, (info) =>
  console.log(`toolctx on http://127.0.0.1:${info.port}`),
);
