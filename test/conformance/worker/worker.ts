// Set-up B of the conformance run: the Worker's MCP door as the MCP guide shows it (`mountMcp` on a
// hono app, one `createMcpSession` Durable Object per 2025 MCP session, 2026 requests served in the
// Worker, their tasks in RunHost objects) serving the fixtures on /mcp, under
// `wrangler dev`, its artifacts in KV and R2. Prompts, completions and the resource fixtures are added with the SDK's API through McpSession's configureServer
// hook, by the same functions the Node set-up uses.
import type { McpServer } from '@modelcontextprotocol/server';
import { createRuntime } from '@toolctx/core';
import { createKvR2ArtifactStore, durableObjectRuns, mountMcp } from '@toolctx/edge';
import { createMcpSession, createRunHost } from '@toolctx/edge/durable-objects';
import { Hono } from 'hono';
import { conformanceTools } from '../fixtures.js';
import { closeReconnectionStreams } from '../reconnection.js';
import { addConformancePrompts } from '../sdk-prompts.js';
import { addConformanceResources } from '../sdk-resources.js';

type Env = {
  MCP_SESSIONS: DurableObjectNamespace<ConformanceMcpSession>;
  /** One object per MCP task (a run of the run host). */
  RUNS: DurableObjectNamespace<InstanceType<typeof RunHost>>;
  ARTIFACT_META: KVNamespace;
  ARTIFACTS: R2Bucket;
  /** Signs 2026 rounds' requestState (a var in this test Worker's wrangler config; a secret elsewhere). */
  MCP_STATE_KEY: string;
};

const runtimeFor = (env: Env) =>
  createRuntime({
    tools: conformanceTools,
    artifacts: createKvR2ArtifactStore({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS }),
  });

// One function adds the SDK-side fixtures to the servers of both revisions.
const configureServer = (server: McpServer) => {
  closeReconnectionStreams(addConformanceResources(addConformancePrompts(server)));
};

export class ConformanceMcpSession extends createMcpSession<Env>(runtimeFor) {
  protected override configureServer(server: McpServer) {
    configureServer(server);
  }
}

export const RunHost = createRunHost<Env>(runtimeFor);

const app = new Hono<{ Bindings: Env }>();
// 2025-11-25 sessions in ConformanceMcpSession objects; 2026-07-28 requests in the Worker itself.
mountMcp(app, {
  binding: 'MCP_SESSIONS',
  runtimeFor,
  configureServer,
  requestStateKey: (env) => env.MCP_STATE_KEY,
  // 2026 tasks in RunHost objects, one per task.
  tasks: (env) => durableObjectRuns(env.RUNS),
});
export default app;
