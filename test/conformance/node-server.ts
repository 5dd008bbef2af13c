// Set-up A of the conformance run: serveMcp on the system Node, behind the SDK's Streamable HTTP
// transport on loopback, one session (server, transport and event store) per MCP session id;
// prompts, completions, the sampling and elicitation tools and the resource fixtures added with
// the SDK's API to the server serveMcp returns, next to the artifacts of its memory store.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createRuntime } from '@toolctx/core';
import { serveMcp } from '@toolctx/core/mcp';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { conformanceTools } from './fixtures.js';
import { addConformancePrompts } from './sdk-prompts.js';
import { addConformanceResources } from './sdk-resources.js';
import { addConformanceSdkTools } from './sdk-tools.js';

export interface NodeMcpServer {
  url: string;
  stop(): Promise<void>;
}

export async function startNodeMcpServer(): Promise<NodeMcpServer> {
  const runtime = createRuntime({ tools: conformanceTools, artifacts: createMemoryArtifactStore() });
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] = [];

  const http = createServer(async (req, res) => {
    try {
      const body = req.method === 'POST' ? JSON.parse((await readBody(req)) || 'null') : undefined;
      const sessionId = req.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (!transport && sessionId === undefined && isInitializeRequest(body)) {
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (id) => {
            sessions.set(id, created);
          },
          // The SDK transport's own DNS-rebinding protection: a loopback server accepts only its Host.
          enableDnsRebindingProtection: true,
          allowedHosts,
          // Resumable streams, as the Worker's McpSession has them: one store per session, so an
          // event id of one session names nothing in another.
          eventStore: new InMemoryEventStore(),
          retryInterval: 1000,
        });
        created.onclose = () => created.sessionId && sessions.delete(created.sessionId);
        await addConformanceSdkTools(
          addConformanceResources(addConformancePrompts(serveMcp(runtime))),
        ).connect(created);
        transport = created;
      }
      if (!transport) {
        res.writeHead(sessionId === undefined ? 400 : 404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'No valid session' }, id: null }),
        );
        return;
      }
      await transport.handleRequest(req, res, body);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async stop() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
