// DNS-rebinding protection of the Worker's /mcp under `wrangler dev`, with its defaults: a page on
// a rebound name reaches 127.0.0.1 with that name in Host and Origin, and is refused with a 403
// before any session object; the loopback names wrangler dev serves pass.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpWorker, startMcpWorker } from './mcp-worker.js';

let worker: McpWorker;
beforeAll(async () => {
  worker = await startMcpWorker();
});
afterAll(() => worker?.dev.stop());

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'rebinding', version: '1' },
  },
});

/** A POST to /mcp with the Host and Origin given, which fetch would not let us forge. */
function post(headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL('/mcp', worker.dev.url);
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method: 'POST',
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...headers,
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        // A session's answer is a stream that stays open; its status is enough.
        if (response.statusCode === 200) {
          response.destroy();
          resolve({ status: 200, body: '' });
        }
      },
    );
    sent.on('error', reject);
    sent.end(initialize);
  });
}

describe("the Worker's /mcp against DNS rebinding, under wrangler dev", () => {
  it('refuses a forged Host with a 403 JSON-RPC error, and creates no session object', async () => {
    const refused = await post({ host: 'evil.example.com', 'x-test-tag': 'forged-host' });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    expect(await worker.sessionStubs('forged-host')).toBe(0);
  });

  it('refuses a forged Origin on the loopback host with a 403', async () => {
    const host = new URL(worker.dev.url).host;
    const refused = await post({ host, origin: 'http://evil.example.com' });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('allowedOrigins');
  });

  it('serves the host wrangler dev listens on, and localhost with its port', async () => {
    const { host, port } = new URL(worker.dev.url);
    expect((await post({ host })).status).toBe(200);
    expect((await post({ host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);
  });
});
