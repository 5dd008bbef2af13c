// Set-up B of the conformance run: the Worker's MCP door as the README shows it (`mountMcp` on a
// hono app, one `McpSession` Durable Object per MCP session) serving the fixtures on /mcp, under
// `wrangler dev`. Prompts, completions and the sampling and elicitation tools are added with the
// SDK's API through McpSession's configureServer hook, by the same functions the Node set-up uses.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createRuntime } from '@toolctx/core';
import { mountMcp } from '@toolctx/edge';
import { McpSession } from '@toolctx/edge/durable-objects';
import { Hono } from 'hono';
import { conformanceTools } from '../fixtures.js';
import { addConformancePrompts } from '../sdk-prompts.js';
import { addConformanceSdkTools } from '../sdk-tools.js';

export class ConformanceMcpSession extends McpSession {
  protected createRuntime() {
    return createRuntime({ tools: conformanceTools });
  }

  protected override configureServer(server: McpServer) {
    addConformanceSdkTools(addConformancePrompts(server));
  }
}

const app = new Hono<{ Bindings: { MCP_SESSIONS: DurableObjectNamespace<ConformanceMcpSession> } }>();
mountMcp(app, { binding: 'MCP_SESSIONS' });
export default app;
