// Test support (not exported): an MCP 2026-07-28 request as a client sends it over streamable
// HTTP — the revision's headers (`Mcp-Method`, `Mcp-Name` from the tool or task named) and its
// version and capabilities in `_meta` — and its JSON-RPC answer, read from JSON or SSE.
import { parseSse } from '../sse/read-sse.js';

/** What {@link mcp2026Request} takes beyond the method and params. */
export interface Mcp2026RequestOptions {
  /** The request's `_meta` beyond the protocol version; default: no client capabilities. */
  meta?: Record<string, unknown>;
  /** More headers (`authorization`, `mcp-param-*`, …). */
  headers?: Record<string, string>;
  id?: string | number;
  signal?: AbortSignal;
}

/** A 2026-07-28 request to `http://localhost/mcp`. */
export function mcp2026Request(
  method: string,
  params: Record<string, unknown>,
  {
    meta = { 'io.modelcontextprotocol/clientCapabilities': {} },
    headers = {},
    id = 1,
    signal,
  }: Mcp2026RequestOptions = {},
): Request {
  // What Mcp-Name carries: a tool's or prompt's name, a task's id, a resource's URI.
  const name = typeof params.name === 'string' ? params.name : (params.taskId ?? params.uri);
  return new Request('http://localhost/mcp', {
    method: 'POST',
    ...(signal ? { signal } : {}),
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', ...meta } },
    }),
  });
}

/** A JSON-RPC answer: its result or its error. */
export interface JsonRpcAnswer {
  id?: string | number | null;
  // biome-ignore lint/suspicious/noExplicitAny: tests read what they expect from the wire.
  result?: Record<string, any>;
  error?: { code: number; message: string; data?: unknown };
}

/** The answer a response carries: the JSON body, or the SSE message with a result or an error. */
export async function answerOf(response: Response): Promise<JsonRpcAnswer> {
  const text = await response.text();
  const messages: JsonRpcAnswer[] = response.headers.get('content-type')?.startsWith('text/event-stream')
    ? parseSse(text).map((event) => JSON.parse(event.data))
    : [JSON.parse(text)];
  return messages.find((message) => 'result' in message || 'error' in message) ?? {};
}
