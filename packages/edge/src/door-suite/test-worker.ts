// A Worker for the door conformance suite only: the suite's tools behind the HTTP+SSE door (one
// Durable Object per run; workerd forbids a run held in the isolate from answering another request)
// and behind the MCP door (one Durable Object per MCP session).
import { createRuntime, type Identity } from '@toolctx/core';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { doorSuiteCredentials, doorSuiteTenant, doorSuiteTools } from '@toolctx/core/testing';
import { Hono } from 'hono';
import { createMcpSession, createRunHost } from '../durable-objects/index.js';
import { createToolServer, durableObjectRuns, mountMcp } from '../index.js';

/** `Bearer ana` is ana and `Bearer bob` is bob, principals of the suite's tenant. */
function authenticate(request: Request): Identity | null {
  const match = /^Bearer (ana|bob)$/.exec(request.headers.get('authorization') ?? '');
  return match ? { tenant: doorSuiteTenant, principal: match[1] } : null;
}

// One copy of the tools per isolate: every run and MCP session of this isolate shares its record.
const tools = doorSuiteTools();
// Artifacts in memory: plain data, shared by the isolate's run objects and the Worker that serves them.
const runtime = createRuntime({
  tools,
  credentials: doorSuiteCredentials(),
  artifacts: createMemoryArtifactStore(),
});

export class DoorSuiteRunHost extends createRunHost(() => runtime) {}

export class DoorSuiteMcpSession extends createMcpSession(() => runtime) {}

export interface DoorSuiteEnv {
  SUITE_MCP: DurableObjectNamespace<DoorSuiteMcpSession>;
  SUITE_RUNS: DurableObjectNamespace<DoorSuiteRunHost>;
}

const app = new Hono<{ Bindings: DoorSuiteEnv }>();
mountMcp(app, { binding: 'SUITE_MCP', authenticate });
app.route(
  '/',
  createToolServer<DoorSuiteEnv>({
    runtimeFor: () => runtime,
    runs: (env) => durableObjectRuns(env.SUITE_RUNS),
    authenticate,
  }),
);

export default app;
