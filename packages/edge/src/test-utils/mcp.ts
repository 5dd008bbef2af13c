// Test helpers: raw MCP streamable HTTP requests to the MCP test Worker (src/mcp/test-worker.ts)
// in the vitest pool.
import { SELF } from 'cloudflare:test';
import { parseSse } from '@toolctx/core/sse';

export const url = 'http://toolctx.test/mcp';
export const accept = 'application/json, text/event-stream';
export const base = { accept, 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' };

/** Opens an MCP session (initialize, then initialized) and answers its id. */
export async function openSession(at = url, headers: Record<string, string> = {}): Promise<string> {
  const init = await SELF.fetch(at, {
    method: 'POST',
    headers: { ...base, ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'corpus', version: '1' },
      },
    }),
  });
  const session = init.headers.get('mcp-session-id');
  await init.text();
  if (!session) throw new Error(`initialize failed: ${init.status}`);
  const ack = await SELF.fetch(at, {
    method: 'POST',
    headers: { ...base, ...headers, 'mcp-session-id': session },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await ack.text();
  return session;
}

/** The JSON-RPC messages of a response, whether it came as JSON or as server-sent events. */
export function messagesOf(text: string, type: string | null): unknown[] {
  if (type?.startsWith('text/event-stream')) return parseSse(text).map((message) => JSON.parse(message.data));
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : [parsed];
}

/** One hostile request. */
export interface Case {
  name: string;
  body?: string;
  headers?: Record<string, string>;
  method?: string;
  /** Send without the session id; or with this one instead. */
  session?: 'none' | string;
}

/** A JSON-RPC request body. */
export const rpc = (method: string, params?: unknown, id: unknown = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
/** A `tools/call` request body. */
export const callTool = (name: unknown, args?: unknown) =>
  rpc('tools/call', { name, ...(args === undefined ? {} : { arguments: args }) });
const _deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/**
 * A 2026-07-28 request: its protocol version and client capabilities in `_meta`, and the headers
 * the revision requires (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` for a named call).
 */
export function modernRequest(
  method: string,
  params: Record<string, unknown> = {},
  id: string | number = 1,
  meta: Record<string, unknown> = {},
): RequestInit & { headers: Record<string, string> } {
  const name = params.name;
  return {
    method: 'POST',
    headers: {
      accept,
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          ...(params._meta as Record<string, unknown> | undefined),
          ...meta,
        },
      },
    }),
  };
}

/** How many call slots `principal` (tenant acme) holds now, as the test Worker's IDENTITY_STATE counts them. */
export async function liveCallSlots(principal: string): Promise<number> {
  const response = await SELF.fetch(`http://toolctx.test/test/call-slots?principal=${principal}`);
  return ((await response.json()) as { live: number }).live;
}

/** Waits for `check` to hold, polling every 20 ms, failing after `ms`. */
export async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${check}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
