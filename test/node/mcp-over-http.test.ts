// serveMcp over streamable HTTP on Node, as packages/core/README.md shows it: the SDK's web-standard
// transport behind node:http with its DNS-rebinding protection on (a page on a rebound name sends
// that name in Host and is refused), and JSON-RPC's answer to an empty batch, whether or not the
// host parsed the body first.
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { createRuntime } from '@toolctx/core';
import { serveMcp } from '@toolctx/core/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: Server;
let port = 0;
const runtime = createRuntime({ tools: [] });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    // Stateless: a server and a transport per request, only this server's own Host names served.
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      enableDnsRebindingProtection: true,
      allowedHosts: [`127.0.0.1:${port}`, `localhost:${port}`],
    });
    await serveMcp(runtime).connect(transport);
    const body = await text(req);
    // `?parsed` plays a host that parses the body itself (express.json()) and hands it over.
    const parsedBody = req.url?.endsWith('?parsed') ? JSON.parse(body) : undefined;
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      ...(parsedBody === undefined && req.method === 'POST' ? { body } : {}),
    });
    const response = await transport.handleRequest(
      request,
      parsedBody === undefined ? undefined : { parsedBody },
    );
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    res.writeHead(response.status, headers);
    res.end(await response.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server?.close(resolve)));

async function text(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

/** A POST with the Host given, which fetch would not let us forge. */
function post(
  body: string,
  host = `127.0.0.1:${port}`,
  path = '/mcp',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          host,
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'mcp-protocol-version': '2025-06-18',
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

describe('serveMcp behind the SDK’s web-standard streamable HTTP transport on node:http', () => {
  it('refuses a Host that is not its own with a 403 (the SDK’s DNS-rebinding protection), and serves its own', async () => {
    const refused = await post(ping, `evil.example:${port}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain(`Invalid Host header: evil.example:${port}`);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const served = await post(ping, host);
      expect(served.status, host).toBe(200);
      expect(JSON.parse(served.body)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    }
  });

  it('answers an empty batch with one Invalid Request error (-32600), whether the host parsed the body or not', async () => {
    for (const path of ['/mcp', '/mcp?parsed']) {
      const answer = await post(' [ ] ', undefined, path);
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: 'Invalid Request: an empty batch ([]) holds no message; send one JSON-RPC message.',
        },
        id: null,
      });
    }
    // Anything else is the transport's as before: a ping, and a body that is not JSON.
    expect((await post(`[${ping}]`)).status).toBe(200);
    const notJson = await post('[', undefined, '/mcp');
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body)).toMatchObject({ error: { code: -32700 } });
  });
});
