// MCP over streamable HTTP on a Cloudflare Worker: one Durable Object per MCP session, so a
// client's cancel reaches the running tool. Bind `MCP_SESSIONS` to `ToolsMcpSession` in wrangler.jsonc.
import { createRuntime } from '@toolctx/core';
import { mountMcp } from '@toolctx/edge';
import { McpSession } from '@toolctx/edge/durable-objects';
import { Hono } from 'hono';
import { tools } from './tools.js';

export class ToolsMcpSession extends McpSession {
  protected createRuntime() {
    return createRuntime({ tools });
  }
}

const app = new Hono<{ Bindings: { MCP_SESSIONS: DurableObjectNamespace<ToolsMcpSession> } }>();
mountMcp(app, { binding: 'MCP_SESSIONS' }); // POST/GET/DELETE /mcp
export default app;
