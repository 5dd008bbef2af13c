// The secret-hygiene scenario behind the real doors: HTTP+SSE with a Durable Object per run, and
// MCP with a Durable Object per session.
import { createToolServer, durableObjectRuns, mountMcp } from '@toolctx/edge';
import { createRunHost, McpSession, type RunHostObject } from '@toolctx/edge/durable-objects';
import { scenarioRuntime } from './scenario.js';

interface Env {
  RUNS: DurableObjectNamespace<RunHostObject<Env>>;
  MCP_SESSIONS: DurableObjectNamespace;
}

const runtime = scenarioRuntime();

export class RunHost extends createRunHost<Env>(() => runtime) {}

export class ScenarioMcpSession extends McpSession<Env> {
  protected createRuntime() {
    return runtime;
  }
}

const authenticate = (request: Request) =>
  request.headers.get('authorization') === 'Bearer scenario' ? { tenant: 't', principal: 'p' } : null;

const app = createToolServer<Env>({
  runtimeFor: () => runtime,
  runs: (env) => durableObjectRuns(env.RUNS),
  authenticate,
});
mountMcp(app, { binding: 'MCP_SESSIONS', authenticate });

export default app;
