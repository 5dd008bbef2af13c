// MCP over streamable HTTP on a Cloudflare Worker: one Durable Object per 2025-11-25 session, so a
// client's cancel reaches the running tool, 2026-07-28 requests answered in the Worker, and their
// tasks (the Tasks extension) one Durable Object each. Bind `MCP_SESSIONS` to `ToolsMcpSession`
// and `RUNS` to `RunHost` in wrangler.jsonc.

import { createRuntime } from '@toolctx/core';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { durableObjectRuns, mountMcp } from '@toolctx/edge';
import { createMcpSession, createRunHost } from '@toolctx/edge/durable-objects';
import { Hono } from 'hono';
import { tools } from './tools.js';

// `summarise` saves an artifact: kept in the isolate's memory, where every session object shares
// the one runtime (the HTTP door and the run host, given the same function, share it too).
const runtimeFor = () => createRuntime({ tools, artifacts: createMemoryArtifactStore() });

export class ToolsMcpSession extends createMcpSession(runtimeFor) {}
// A task is a run of the run host: its call, asks and result live in the run's object.
export class RunHost extends createRunHost(runtimeFor) {}

type Bindings = {
  MCP_SESSIONS: DurableObjectNamespace<ToolsMcpSession>;
  RUNS: DurableObjectNamespace<RunHost>;
  MCP_TOKEN?: string;
  MCP_STATE_KEY?: string; // `wrangler secret put MCP_STATE_KEY`: 32 bytes or more
};
const app = new Hono<{ Bindings: Bindings }>();
mountMcp(app, {
  binding: 'MCP_SESSIONS', // POST/GET/DELETE /mcp
  runtimeFor, // the session class's function: 2026-07-28 requests share the isolate's runtime
  requestStateKey: (env: Bindings) => env.MCP_STATE_KEY, // signs 2026 asks' rounds
  tasks: (env: Bindings) => durableObjectRuns(env.RUNS), // 2026 tasks, one run object each
  // Leave `authenticate` out and the endpoint is OPEN: anyone who can reach /mcp calls every tool.
  // Identity comes only from here, given the request and the Worker's env; null answers 401 with
  // a `WWW-Authenticate: Bearer` challenge, { refused } a 401 with its message.
  authenticate: (request, env: Bindings) => {
    if (!env.MCP_TOKEN) return { refused: 'MCP_TOKEN is not set: add it to .dev.vars or as a secret.' };
    return request.headers.get('authorization') === `Bearer ${env.MCP_TOKEN}`
      ? { tenant: 'acme', principal: 'mcp-client' }
      : null;
  },
  // Against DNS rebinding, only these Host names are served (the default is the loopback names
  // `wrangler dev` uses); an Origin must be on one of them.
  allowedHosts: ['localhost', '127.0.0.1', '[::1]', 'tools.example.com'],
});
export default app;
