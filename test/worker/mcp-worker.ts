// The MCP test Worker (packages/edge/src/mcp/test-worker.ts) under `wrangler dev`: the official MCP
// SDK client as one identity, raw streamable HTTP as any other.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
import { edgeDir } from './example-worker.js';

const accept = 'application/json, text/event-stream';
const protocolVersion = '2025-06-18';

/** A JSON-RPC message as the SDK client sent it. */
export interface SentMessage {
  id?: string | number;
  method?: string;
  params?: { name?: string; arguments?: Record<string, unknown> };
}

/** An SDK client connected as one principal, and every JSON-RPC message it sent. */
export interface McpClientAs {
  client: Client;
  sessionId: string;
  sent: SentMessage[];
}

export interface McpWorker {
  dev: WranglerDev;
  /** The official SDK client on the Worker's path with the bearer token `token` (the principal). */
  connectAs(token: string): Promise<McpClientAs>;
  /** A raw request to the Worker's path as `token`, naming `sessionId` (none if `undefined`). */
  raw(
    token: string,
    sessionId: string | undefined,
    init?: { method?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  /** A raw initialize (and `notifications/initialized`) as `token`; answers the session id. */
  openRaw(token: string): Promise<string>;
  /** Session objects the Worker got a stub for, for requests tagged `x-test-tag: tag`. */
  sessionStubs(tag: string): Promise<number>;
}

/** Starts the MCP test Worker; the client and raw requests go to `path` (default `/mcp-auth`). */
export async function startMcpWorker(path = '/mcp-auth'): Promise<McpWorker> {
  const dev = await startWranglerDev({ cwd: edgeDir, config: 'src/mcp/wrangler.test.jsonc' });
  const endpoint = `${dev.url}${path}`;
  const raw: McpWorker['raw'] = (token, sessionId, init = {}) =>
    fetch(endpoint, {
      method: init.method ?? 'POST',
      headers: {
        accept,
        'content-type': 'application/json',
        'mcp-protocol-version': protocolVersion,
        authorization: `Bearer ${token}`,
        ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  return {
    dev,
    raw,
    async connectAs(token) {
      const sent: SentMessage[] = [];
      const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
        fetch: (input, init) => {
          if (typeof init?.body === 'string') {
            const body = JSON.parse(init.body) as SentMessage | SentMessage[];
            sent.push(...(Array.isArray(body) ? body : [body]));
          }
          return fetch(input, init);
        },
      });
      const client = new Client({ name: 'owner', version: '1.0.0' });
      await client.connect(transport);
      if (!transport.sessionId) throw new Error('the server gave no session id');
      return { client, sessionId: transport.sessionId, sent };
    },
    async openRaw(token) {
      const init = await raw(token, undefined, {
        body: {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        },
      });
      await init.text();
      const sessionId = init.headers.get('mcp-session-id');
      if (!sessionId) throw new Error(`initialize answered ${init.status}`);
      const ack = await raw(token, sessionId, {
        body: { jsonrpc: '2.0', method: 'notifications/initialized' },
      });
      await ack.text();
      return sessionId;
    },
    async sessionStubs(tag) {
      const response = await fetch(`${dev.url}/test/session-stubs?tag=${encodeURIComponent(tag)}`);
      return ((await response.json()) as { stubs: number }).stubs;
    },
  };
}
