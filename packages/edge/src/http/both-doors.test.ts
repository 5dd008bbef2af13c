// The HTTP door and the MCP door on one hono app, mounted in either order: each path answers as
// its own door — MCP's 401 with the WWW-Authenticate that MCP clients discover auth from, the
// HTTP door's JSON errors — and each door's authentication runs for its own paths only.
import { createExecutionContext, env } from 'cloudflare:test';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createToolServer, mountMcp } from '../index.js';
import { runtime } from '../test-utils/server.js';

const identity = { tenant: 'acme', principal: 'ana' };

function doors(order: 'mcp on the HTTP door' | 'the HTTP door on an MCP app') {
  const asked = { http: 0, mcp: 0 };
  const http = () =>
    createToolServer({
      runtimeFor: () => runtime,
      authenticate: (request) => {
        asked.http++;
        return request.headers.get('authorization') === 'Bearer http-token' ? identity : null;
      },
    });
  // The MCP route is only reached unauthenticated here: any namespace passes its binding check.
  const mcp = {
    binding: 'RUNS',
    resourceMetadataUrl: 'https://tools.example.com/.well-known/oauth-protected-resource',
    authenticate: () => {
      asked.mcp++;
      return null;
    },
  };
  if (order === 'mcp on the HTTP door') {
    const app = http();
    mountMcp(app, mcp);
    return { app, asked };
  }
  const app = new Hono();
  mountMcp(app, mcp);
  app.route('/', http());
  return { app, asked };
}

describe('both doors on one app', () => {
  it.each(['mcp on the HTTP door', 'the HTTP door on an MCP app'] as const)(
    '%s: each path answers as its own door',
    async (order) => {
      const { app, asked } = doors(order);
      const mcp = await app.request(
        '/mcp',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        },
        env,
      );
      expect(mcp.status).toBe(401);
      expect(mcp.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(mcp.headers.get('www-authenticate')).toContain('resource_metadata=');
      expect(await mcp.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
      expect(asked).toEqual({ http: 0, mcp: 1 });
      const tools = await app.request('/tools', {}, env);
      expect(tools.status).toBe(401);
      expect(await tools.json()).toMatchObject({ kind: 'unauthenticated' });
      const listed = await app.request('/tools', { headers: { authorization: 'Bearer http-token' } }, env);
      expect(listed.status).toBe(200);
      const runs = await app.request(
        '/runs',
        { method: 'POST', headers: { authorization: 'Bearer http-token' } },
        env,
      );
      expect(runs.status).toBe(201);
      // Once per request, never twice, and the MCP door's never for the HTTP door's paths.
      expect(asked).toEqual({ http: 3, mcp: 1 });
    },
  );
});

describe("authenticate gets the request's ExecutionContext, on both doors", () => {
  it('as its third argument (where an OAuth wrapper puts its props), and undefined when the app is called without one', async () => {
    const seen: Array<[string, unknown]> = [];
    const app = createToolServer({
      runtimeFor: () => runtime,
      authenticate: (_request, _env, ctx) => {
        seen.push(['http', ctx]);
        return (ctx as { props?: { user?: string } } | undefined)?.props?.user
          ? { tenant: 'acme', principal: (ctx as unknown as { props: { user: string } }).props.user }
          : null;
      },
    });
    mountMcp(app, {
      binding: 'RUNS',
      authenticate: (_request, _env, ctx) => {
        seen.push(['mcp', ctx]);
        return null;
      },
    });
    // What @cloudflare/workers-oauth-provider hands the handler: the context, with the grant's props.
    const ctx = Object.assign(createExecutionContext(), { props: { user: 'ana' } });
    expect((await app.request('/tools', {}, env, ctx)).status).toBe(200);
    expect((await app.request('/mcp', { method: 'POST', body: '{}' }, env, ctx)).status).toBe(401);
    expect((await app.request('/tools', {}, env)).status).toBe(401);
    expect(seen).toEqual([
      ['http', ctx],
      ['mcp', ctx],
      ['http', undefined],
    ]);
  });
});
