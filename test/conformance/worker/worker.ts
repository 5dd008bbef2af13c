// Set-up B of the conformance run: the Worker's MCP door as the README shows it (`mountMcp` on a
// hono app, one `McpSession` Durable Object per MCP session) serving the fixtures on /mcp, under
// `wrangler dev`.
import { createRuntime } from '@toolctx/core';
import { mountMcp } from '@toolctx/edge';
import { McpSession } from '@toolctx/edge/durable-objects';
import { Hono } from 'hono';
import { conformanceTools } from '../fixtures.js';

export class ConformanceMcpSession extends McpSession {
  protected createRuntime() {
    return createRuntime({ tools: conformanceTools });
  }
}

const app = new Hono<{ Bindings: { MCP_SESSIONS: DurableObjectNamespace<ConformanceMcpSession> } }>();
mountMcp(app, { binding: 'MCP_SESSIONS' });
export default app;
