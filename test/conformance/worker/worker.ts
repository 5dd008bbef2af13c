// Set-up B of the conformance run: the Worker's MCP door (`mcpFetch` routing to an `McpSession`
// Durable Object) serving the conformance fixtures on /mcp, under `wrangler dev`.
import { createRuntime } from '@toolctx/core';
import { mcpFetch } from '@toolctx/edge';
import { McpSession } from '@toolctx/edge/durable-objects';
import { conformanceTools } from '../fixtures.js';

export class ConformanceMcpSession extends McpSession {
  protected createRuntime() {
    return createRuntime({ tools: conformanceTools });
  }
}

// Bound to ConformanceMcpSession in wrangler.jsonc.
type Env = { MCP_SESSIONS: DurableObjectNamespace };

export default {
  fetch: (request, env) =>
    new URL(request.url).pathname === '/mcp'
      ? mcpFetch(request, env.MCP_SESSIONS)
      : new Response('not found', { status: 404 }),
} satisfies ExportedHandler<Env>;
