import type { Identity } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { createToolServer, type ToolServerOptions } from '../http/create-tool-server.js';
import { refuseForeignHost } from '../mcp/dns-rebinding.js';
import { runtime } from '../test-utils/server.js';
import { foreignHost } from './allowed-hosts.js';

// The HTTP door against DNS rebinding: a page on a name its attacker controls, rebound to this
// server's address, sends that name in Host. Only the names in allowedHosts are answered.

function door(options: Partial<ToolServerOptions<{ HOSTS?: string }>> = {}) {
  let authentications = 0;
  const app = createToolServer<{ HOSTS?: string }>({
    runtimeFor: () => runtime,
    authenticate: (): Identity => {
      authentications += 1;
      return { tenant: 'acme', principal: 'ana' };
    },
    ...options,
  });
  const get = (host: string | undefined, init: RequestInit = {}, env: { HOSTS?: string } = {}) => {
    const headers = new Headers(init.headers);
    if (host !== undefined) headers.set('host', host);
    return app.request('/tools', { ...init, headers }, env);
  };
  return { get, authentications: () => authentications };
}

describe('HTTP door: allowedHosts', () => {
  it('serves the loopback names by default, with any port and in any case', async () => {
    const { get } = door();
    for (const host of ['localhost', 'localhost:8787', '127.0.0.1:8787', '[::1]:8787', 'LocalHost:1']) {
      expect((await get(host)).status, host).toBe(200);
    }
  });

  it('refuses any other Host with a 421 ErrorInfo naming the host and the option, before authenticate', async () => {
    const { get, authentications } = door();
    for (const host of ['evil.example', 'evil.example:8787', '127.0.0.1.evil.example', 'localhost.', '']) {
      const response = await get(host);
      expect(response.status, host).toBe(421);
      expect(await response.json()).toEqual({
        kind: 'misdirected-request',
        message: `This server does not answer for the Host ${JSON.stringify(host)}: add its name to createToolServer's allowedHosts (default: localhost, 127.0.0.1, [::1]).`,
        retryable: false,
        details: { host, allowedHosts: ['localhost', '127.0.0.1', '[::1]'] },
      });
    }
    expect(authentications()).toBe(0);
  });

  it('refuses a rebound page before CORS: its preflight gets no Access-Control-Allow-Origin', async () => {
    const { get } = door({ cors: { origins: ['http://evil.example:8787'] } });
    const preflight = await get('evil.example:8787', {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example:8787', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(421);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('serves only the names it is given, from a list or a function of the bindings', async () => {
    const listed = door({ allowedHosts: ['tools.example.com', 'Tools.Example.NET:443'] });
    expect((await listed.get('tools.example.com')).status).toBe(200);
    expect((await listed.get('tools.example.net:8443')).status).toBe(200);
    expect((await listed.get('localhost:8787')).status).toBe(421);
    const fromEnv = door({ allowedHosts: (env) => env.HOSTS?.split(',') });
    expect((await fromEnv.get('tools.example.com', {}, { HOSTS: 'tools.example.com' })).status).toBe(200);
    expect((await fromEnv.get('localhost', {}, { HOSTS: 'tools.example.com' })).status).toBe(421);
    // undefined from the function is the default
    expect((await fromEnv.get('localhost', {}, {})).status).toBe(200);
  });

  it('lets a request without Host through (a service binding, app.request)', async () => {
    expect((await door({ allowedHosts: ['tools.example.com'] }).get(undefined)).status).toBe(200);
  });

  it('is the MCP door’s check too: the same names pass and fail at both doors', () => {
    const hosts = ['tools.example.com'];
    for (const host of [
      'tools.example.com:8443',
      'TOOLS.example.com',
      'evil.example',
      'localhost',
      '[::1]',
    ]) {
      const request = new Request('http://x/', { headers: { host } });
      const http = foreignHost(request, hosts) === undefined;
      const mcp = refuseForeignHost(request, { allowedHosts: hosts }) === undefined;
      expect(mcp, host).toBe(http);
    }
  });
});

describe('foreignHost keeps its verdicts', () => {
  const request = (host: string) => new Request('http://x.test/', { headers: { host } });

  it('by header and list: the same Host under two lists gets each list its own verdict', () => {
    expect(foreignHost(request('tools.example'), ['tools.example'])).toBeUndefined();
    expect(foreignHost(request('tools.example'), ['other.example'])).toBe('tools.example');
    expect(foreignHost(request('tools.example'), ['tools.example'])).toBeUndefined();
    expect(foreignHost(request('tools.example'))).toBe('tools.example');
  });

  it('a stranger sending a thousand Host headers changes no verdict', () => {
    for (let i = 0; i < 1000; i++)
      expect(foreignHost(request(`evil-${i}.example`))).toBe(`evil-${i}.example`);
    expect(foreignHost(request('localhost:8787'))).toBeUndefined();
    expect(foreignHost(request('evil-0.example'))).toBe('evil-0.example');
  });

  it('judges a Host header longer than any host name every time, and the same way', () => {
    const long = `${'a'.repeat(30_000)}.example`;
    expect(foreignHost(request(long))).toBe(long);
    expect(foreignHost(request(long))).toBe(long);
    const listed = ['a'.repeat(300)];
    expect(foreignHost(request('a'.repeat(300)), listed)).toBeUndefined();
    expect(foreignHost(request('a'.repeat(300)), listed)).toBeUndefined();
  });
});
