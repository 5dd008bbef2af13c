// Set-up A of the conformance run: serveMcpHttp on the system Node, on loopback, serving 2025-11-25
// sessions and 2026-07-28 requests alike; prompts, completions and the resource fixtures added with
// the SDK's API through its configureServer, next to the artifacts of its memory store.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRuntime } from '@toolctx/core';
import { serveMcpHttp } from '@toolctx/core/mcp';
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
  const mcp = serveMcpHttp(runtime, {
    configureServer: (server) => {
      closeReconnectionStreams(addConformanceResources(addConformancePrompts(server)));
    },
  });
  const http = createServer(async (req, res) => {
    try {
      const text = req.method === 'POST' ? await readBody(req) : undefined;
      const hangUp = new AbortController();
      res.on('close', () => hangUp.abort());
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        signal: hangUp.signal,
        ...(text !== undefined ? { body: text } : {}),
      });
      await send(res, await mcp.fetch(request));
    } catch (error) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async stop() {
      await mcp.close();
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

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}
