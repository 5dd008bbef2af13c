// Set-up A of the conformance run: serveMcp on the system Node, behind the SDK's web-standard
// Streamable HTTP transport on loopback, one session (server, transport and event store) per MCP
// session id; prompts, completions and the resource fixtures added with the SDK's API to the
// server serveMcp returns, next to the artifacts of its memory store.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type EventId,
  type EventStore,
  isInitializeRequest,
  type JSONRPCMessage,
  type StreamId,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { createRuntime } from '@toolctx/core';
import { serveMcp } from '@toolctx/core/mcp';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { conformanceTools } from './fixtures.js';
import { closeReconnectionStreams } from './reconnection.js';
import { addConformancePrompts } from './sdk-prompts.js';
import { addConformanceResources } from './sdk-resources.js';

export interface NodeMcpServer {
  url: string;
  stop(): Promise<void>;
}

export async function startNodeMcpServer(): Promise<NodeMcpServer> {
  const runtime = createRuntime({ tools: conformanceTools, artifacts: createMemoryArtifactStore() });
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  let allowedHosts: string[] = [];

  const http = createServer(async (req, res) => {
    try {
      const text = req.method === 'POST' ? await readBody(req) : undefined;
      const body = text ? JSON.parse(text) : undefined;
      const sessionId = req.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (!transport && sessionId === undefined && isInitializeRequest(body)) {
        const created: WebStandardStreamableHTTPServerTransport =
          new WebStandardStreamableHTTPServerTransport({
            sessionIdGenerator: randomUUID,
            onsessioninitialized: (id) => {
              sessions.set(id, created);
            },
            // The SDK transport's own DNS-rebinding protection: a loopback server accepts only its Host.
            enableDnsRebindingProtection: true,
            allowedHosts,
            // Resumable streams, as the Worker's McpSession has them: one store per session, so an
            // event id of one session names nothing in another.
            eventStore: memoryEventStore(),
            retryInterval: 1000,
          });
        created.onclose = () => created.sessionId && sessions.delete(created.sessionId);
        await closeReconnectionStreams(
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
      const hangUp = new AbortController();
      res.on('close', () => hangUp.abort());
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        signal: hangUp.signal,
        ...(text !== undefined ? { body: text } : {}),
      });
      await send(
        res,
        await transport.handleRequest(request, body === undefined ? undefined : { parsedBody: body }),
      );
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

/** Streams a web Response to Node's, chunk by chunk, so an SSE stream reaches the client as it goes. */
async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  res.flushHeaders();
  const reader = response.body.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) res.write(next.value);
  } catch {
    // The stream ended under us (the session closed): the client reads the end.
  }
  res.end();
}

/** The SDK's EventStore in memory: every stream's messages in order, replayed after an event id. */
function memoryEventStore(): EventStore {
  const events: { id: EventId; streamId: StreamId; message: JSONRPCMessage }[] = [];
  return {
    async storeEvent(streamId, message) {
      const id = `${streamId}_${events.length}`;
      events.push({ id, streamId, message });
      return id;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const at = events.findIndex((event) => event.id === lastEventId);
      if (at < 0) throw new Error(`Unknown event id ${lastEventId}`);
      const { streamId } = events[at]!;
      for (const event of events.slice(at + 1))
        if (event.streamId === streamId) await send(event.id, event.message);
      return streamId;
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}
