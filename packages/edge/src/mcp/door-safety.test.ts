import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { base, openSession, rpc, url } from '../test-utils/mcp.js';

// The MCP door's safe defaults in workerd: Host/Origin validation against DNS rebinding, the
// challenge a 401 carries, and a body bounded before anything parses it.

const initialize = rpc('initialize', {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'safety', version: '1' },
});
const deployed = 'http://tools.example.com/mcp-deployed';

async function post(at: string, headers: Record<string, string>, body: BodyInit = initialize) {
  const response = await SELF.fetch(at, { method: 'POST', headers: { ...base, ...headers }, body });
  return {
    status: response.status,
    headers: response.headers,
    body: await response.json().catch(() => null),
  };
}

async function stubs(tag: string): Promise<number> {
  const response = await SELF.fetch(`http://toolctx.test/test/session-stubs?tag=${tag}`);
  return ((await response.json()) as { stubs: number }).stubs;
}

/**
 * A body sent in chunks, so it declares no Content-Length. Written through a native stream so
 * that the door's cancel, once it has read past the limit, ends the writes here, not the isolate.
 */
function chunked(bytes: number): ReadableStream<Uint8Array> {
  const { readable, writable } = new IdentityTransformStream();
  const writer = writable.getWriter();
  const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
  void (async () => {
    for (let sent = 0; sent < bytes; sent += chunk.byteLength) await writer.write(chunk);
    await writer.close();
  })().catch(() => {});
  return readable;
}

const forbiddenBody = (message: RegExp) => ({
  jsonrpc: '2.0',
  error: { code: -32000, message: expect.stringMatching(message) },
  id: null,
});

describe('Host and Origin validation on the MCP door', () => {
  it('refuses a Host that is not a loopback name with a 403 JSON-RPC error, before any session object', async () => {
    const refused = await post(url, { host: 'evil.example.com', 'x-test-tag': 'rebound-host' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(forbiddenBody(/Host header "evil\.example\.com" .* allowedHosts/));
    expect(await stubs('rebound-host')).toBe(0);
  });

  it('serves the loopback names wrangler dev uses, with any port', async () => {
    for (const host of ['localhost:8787', '127.0.0.1:8787', '[::1]:8787', 'localhost']) {
      expect((await post(url, { host })).status, host).toBe(200);
    }
  });

  it('refuses an Origin on another host, and serves one on a loopback name', async () => {
    const refused = await post(url, { host: '127.0.0.1:8787', origin: 'http://evil.example.com:8787' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(
      forbiddenBody(/Origin "http:\/\/evil\.example\.com:8787" .* allowedOrigins/),
    );
    expect((await post(url, { host: '127.0.0.1:8787', origin: 'http://localhost:6274' })).status).toBe(200);
    expect((await post(url, { origin: 'null' })).status).toBe(403);
  });

  it('serves only the configured hosts and origins when they are given', async () => {
    const auth = { authorization: 'Bearer ok' };
    expect((await post(deployed, { ...auth, host: 'tools.example.com' })).status).toBe(200);
    expect((await post(deployed, { ...auth, host: 'localhost:8787' })).status).toBe(403);
    const origin = { ...auth, host: 'tools.example.com' };
    expect((await post(deployed, { ...origin, origin: 'https://app.example.com' })).status).toBe(200);
    expect((await post(deployed, { ...origin, origin: 'https://tools.example.com' })).status).toBe(403);
  });

  it('checks Host and Origin before authentication', async () => {
    const refused = await post(deployed, { host: 'evil.example.com' });
    expect(refused.status).toBe(403);
    expect(refused.headers.has('www-authenticate')).toBe(false);
  });
});

describe('the 401 of the MCP door', () => {
  it('carries a Bearer challenge', async () => {
    const refused = await post('http://toolctx.test/mcp-auth', {});
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="mcp"');
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Unauthorized.' },
      id: null,
    });
  });

  it('names the protected-resource metadata when the endpoint has it', async () => {
    const refused = await post(deployed, { host: 'tools.example.com', authorization: 'Bearer wrong' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      'Bearer realm="mcp", resource_metadata="https://tools.example.com/.well-known/oauth-protected-resource/mcp-deployed"',
    );
  });
});

describe("the MCP door's authenticate", () => {
  it("gets the Worker's env: the token kept there lets the caller in, any other is a 401", async () => {
    const admitted = await post('http://toolctx.test/mcp-env', { authorization: 'Bearer token-from-env' });
    expect(admitted.status).toBe(200);
    const refused = await post('http://toolctx.test/mcp-env', { authorization: 'Bearer guess' });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Unauthorized.' },
      id: null,
    });
  });

  it('answers a { refused } with a 401 carrying its message and the Bearer challenge', async () => {
    const refused = await post('http://toolctx.test/mcp-env-unset', {
      authorization: 'Bearer token-from-env',
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="mcp"');
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'MCP_TOKEN_UNSET is not set for this Worker.' },
      id: null,
    });
  });
});

describe('the body bound of the MCP door', () => {
  const tooLarge = {
    jsonrpc: '2.0',
    error: { code: -32000, message: 'Payload Too Large: Request body must not exceed 1048576 bytes' },
    id: null,
  };

  it('answers 413 with a JSON-RPC error to a chunked body over 1 MiB, before any session object', async () => {
    const refused = await post(url, { 'x-test-tag': 'chunked-body' }, chunked(2 * 1024 * 1024));
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual(tooLarge);
    expect(await stubs('chunked-body')).toBe(0);
  });

  it('answers 413 in the session object too, to a chunked body over 1 MiB that reaches it', async () => {
    const session = await openSession();
    // env is typed for the example Worker (src/test-env.d.ts); this pool runs the MCP test Worker.
    const sessions = (env as unknown as { MCP_SESSIONS: DurableObjectNamespace }).MCP_SESSIONS;
    const stub = sessions.get(sessions.idFromString(session));
    const response = await stub.fetch(url, {
      method: 'POST',
      headers: { ...base, 'mcp-session-id': session },
      body: chunked(2 * 1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(tooLarge);
  });
});

describe('an empty JSON-RPC batch at the MCP door', () => {
  // JSON-RPC 2.0: `[]` is answered with one Invalid Request error; the SDK's transport would take
  // it as a batch of no requests and answer 202.
  const invalid = {
    jsonrpc: '2.0',
    error: {
      code: -32600,
      message: 'Invalid Request: an empty batch ([]) holds no message; send one JSON-RPC message.',
    },
    id: null,
  };

  it('is one Invalid Request error (-32600), in a session and without one', async () => {
    const session = await openSession();
    for (const [headers, body] of [
      [{ 'mcp-session-id': session }, '[]'],
      [{ 'mcp-session-id': session }, ' [ \n ] '],
      [{ 'x-test-tag': 'empty-batch' }, '[]'],
    ] as const) {
      const refused = await post(url, headers, body);
      expect(refused.status, body).toBe(400);
      expect(refused.body).toEqual(invalid);
    }
    expect(await stubs('empty-batch')).toBe(0);
  });

  it('leaves a batch of one message to the session', async () => {
    const session = await openSession();
    const answered = await SELF.fetch(url, {
      method: 'POST',
      headers: { ...base, 'mcp-session-id': session },
      body: `[${rpc('ping')}]`,
    });
    expect(answered.status).toBe(200);
    await answered.body?.cancel();
  });
});

describe('a trickling body at the MCP door', () => {
  it('is cut after 10 s with a 408 JSON-RPC error, before any session object', async () => {
    const { readable, writable } = new IdentityTransformStream();
    const writer = writable.getWriter();
    void writer.write(new TextEncoder().encode('{"jsonrpc":')).catch(() => {});
    const started = Date.now();
    const refused = await post(url, { 'x-test-tag': 'trickling-body' }, readable);
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_900);
    expect(refused.status).toBe(408);
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Request Timeout: the body did not arrive within 10000 ms' },
      id: null,
    });
    expect(await stubs('trickling-body')).toBe(0);
    await writer.close().catch(() => {});
  });

  it('is cut in the session object too, with the same 408', async () => {
    const session = await openSession();
    const sessions = (env as unknown as { MCP_SESSIONS: DurableObjectNamespace }).MCP_SESSIONS;
    const { readable, writable } = new IdentityTransformStream();
    const writer = writable.getWriter();
    void writer.write(new TextEncoder().encode('{"jsonrpc":')).catch(() => {});
    const response = await sessions.get(sessions.idFromString(session)).fetch(url, {
      method: 'POST',
      headers: { ...base, 'mcp-session-id': session },
      body: readable,
    });
    expect(response.status).toBe(408);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Request Timeout: the body did not arrive within 10000 ms' },
      id: null,
    });
    await writer.close().catch(() => {});
  });
});
