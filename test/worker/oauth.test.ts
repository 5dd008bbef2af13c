// OAuth on the Worker under `wrangler dev`: both doors behind @cloudflare/workers-oauth-provider
// (test/oauth-worker, the edge README's quick start), and the official MCP SDK client's OAuth
// support going through the whole flow as a user's client does — discovery from the 401's
// WWW-Authenticate, dynamic client registration, PKCE, the token — then tools/call as that
// principal; another principal's token reaches none of the first one's artifacts, on either door.
import { fileURLToPath } from 'node:url';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NarrowOAuthClient, signIn as signInAt, textOf } from '../oauth-client.js';
import { freePort, startWranglerDev, type WranglerDev } from '../wrangler-dev.js';

const testDir = fileURLToPath(new URL('..', import.meta.url));

let dev: WranglerDev;
beforeAll(async () => {
  // The Worker knows its own origin up front: it is the resource its tokens are issued for.
  const port = await freePort();
  dev = await startWranglerDev({
    cwd: testDir,
    config: 'oauth-worker/wrangler.jsonc',
    port,
    vars: { PUBLIC_ORIGIN: `http://127.0.0.1:${port}` },
  });
});
afterAll(async () => {
  await dev?.stop();
});

const signIn = (user: string) => signInAt(dev.url, user);

describe('OAuth on the Worker (@cloudflare/workers-oauth-provider) under wrangler dev', () => {
  it("answers a request without a token on either door with a 401 whose WWW-Authenticate names the protected-resource metadata, which names this Worker's origin as the resource", async () => {
    for (const [path, init] of [
      ['/mcp', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }],
      ['/tools', {}],
      ['/artifacts/art_x', {}],
    ] as const) {
      const response = await fetch(`${dev.url}${path}`, init);
      expect([path, response.status]).toEqual([path, 401]);
      expect(response.headers.get('www-authenticate')).toContain(
        `resource_metadata="${dev.url}/.well-known/oauth-protected-resource"`,
      );
    }
    const metadata = await (await fetch(`${dev.url}/.well-known/oauth-protected-resource`)).json();
    expect(metadata).toMatchObject({ resource: dev.url, authorization_servers: [dev.url] });
    // A token the provider did not issue is refused the same way.
    const forged = await fetch(`${dev.url}/tools`, {
      headers: { authorization: 'Bearer alice:forged:token' },
    });
    expect(forged.status).toBe(401);
  });

  it('lets the MCP SDK client sign in (discovery, registration, PKCE, token) and call tools as that principal', async () => {
    const alice = await signIn('alice');
    // The first POST met the challenge; discovery from it, then registration; the code exchange
    // (after discovering again); then MCP with the token.
    expect(alice.requests.slice(0, 4)).toEqual([
      'POST /mcp',
      'GET /.well-known/oauth-protected-resource',
      'GET /.well-known/oauth-authorization-server',
      'POST /register',
    ]);
    const token = alice.requests.indexOf('POST /token');
    expect(token).toBeGreaterThan(3);
    expect(alice.requests.slice(token + 1)).toContain('POST /mcp');
    expect(alice.requests.filter((request) => request === 'POST /register')).toHaveLength(1);
    const authorization = alice.oauth.authorizationUrl!;
    expect(authorization.pathname).toBe('/authorize');
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(new URL(authorization.searchParams.get('resource')!).origin).toBe(dev.url);
    expect(textOf(await alice.client.callTool({ name: 'whoami', arguments: {} }))).toContain('"alice"');
    // The same token opens the HTTP door, as the same principal.
    const called = await fetch(`${dev.url}/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'whoami', args: {} }),
    });
    expect(await called.json()).toMatchObject({ ok: true, value: { principal: 'alice' } });
    await alice.client.close();
  });

  it('issues tokens for this Worker only: a client asking for another resource is refused at /authorize, with no code', async () => {
    for (const resource of [`${dev.url}/mcp`, 'https://elsewhere.example.com']) {
      const oauth = new NarrowOAuthClient(resource);
      const transport = new StreamableHTTPClientTransport(new URL(`${dev.url}/mcp`), { authProvider: oauth });
      await expect(new Client({ name: 'carol', version: '1.0.0' }).connect(transport)).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      const authorize = new URL(oauth.authorizationUrl!);
      expect(authorize.searchParams.get('resource')).toBe(new URL(resource).href);
      authorize.searchParams.set('user', 'carol');
      const consent = await fetch(authorize, { redirect: 'manual' });
      expect(consent.status).toBe(302);
      const back = new URL(consent.headers.get('location')!);
      expect([resource, back.searchParams.get('error'), back.searchParams.get('code')]).toEqual([
        resource,
        'invalid_target',
        null,
      ]);
    }
  });

  it("keeps one principal's artifacts out of another's reach: a second user's token reads none of them, on either door", async () => {
    const alice = await signIn('alice');
    const saved = textOf(
      await alice.client.callTool({ name: 'save_note', arguments: { text: 'for alice only' } }),
    );
    const ref = /art_\w+/.exec(saved)?.[0];
    expect(ref).toBeDefined();
    const read = (token: string) =>
      fetch(`${dev.url}/artifacts/${ref}`, { headers: { authorization: `Bearer ${token}` } });
    const own = await read(alice.token);
    expect([own.status, await own.text()]).toEqual([200, 'for alice only']);
    const resource = await alice.client.readResource({ uri: `toolctx://artifacts/${ref}` });
    expect(resource.contents[0]).toMatchObject({ text: 'for alice only' });

    const bob = await signIn('bob');
    expect(bob.token).not.toBe(alice.token);
    expect(textOf(await bob.client.callTool({ name: 'whoami', arguments: {} }))).toContain('"bob"');
    const theirs = await read(bob.token);
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain('for alice only');
    await expect(bob.client.readResource({ uri: `toolctx://artifacts/${ref}` })).rejects.toThrow(
      /not found/i,
    );
    const listed = await bob.client.listResources();
    expect(JSON.stringify(listed)).not.toContain(ref!);
    await Promise.all([alice.client.close(), bob.client.close()]);
  });
});
