// The secret-hygiene scenario behind the real doors: HTTP+SSE with a Durable Object per run, and
// MCP with a Durable Object per session; artifacts in KV and R2 as the example Worker keeps them.
import { createKvR2ArtifactStore, createToolServer, durableObjectRuns, mountMcp } from '@toolctx/edge';
import { createMcpSession, createRunHost, type RunHostObject } from '@toolctx/edge/durable-objects';
import { scenarioRuntime } from './scenario.js';

interface Env {
  RUNS: DurableObjectNamespace<RunHostObject<Env>>;
  MCP_SESSIONS: DurableObjectNamespace;
  ARTIFACT_META: KVNamespace;
  ARTIFACTS: R2Bucket;
}

// The door, the run host and the MCP sessions call it once per env object and share what it made.
const runtimeFor = (env: Env) =>
  scenarioRuntime(createKvR2ArtifactStore({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS }));

export class RunHost extends createRunHost<Env>(runtimeFor) {}

export class ScenarioMcpSession extends createMcpSession<Env>(runtimeFor) {}

// `Bearer other` is a second identity of the same tenant, for what it must not see.
const identities: Record<string, { tenant: string; principal: string }> = {
  'Bearer scenario': { tenant: 't', principal: 'p' },
  'Bearer other': { tenant: 't', principal: 'q' },
};
const authenticate = (request: Request) => identities[request.headers.get('authorization') ?? ''] ?? null;

const app = createToolServer<Env>({
  runtimeFor,
  runs: (env) => durableObjectRuns(env.RUNS),
  authenticate,
});
mountMcp(app, { binding: 'MCP_SESSIONS', authenticate });

export default app;
