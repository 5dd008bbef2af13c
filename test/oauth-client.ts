// The client's side of OAuth against a Worker behind @cloudflare/workers-oauth-provider, as a user's
// MCP client goes through it: the official MCP SDK client's OAuth support discovers from the 401's
// WWW-Authenticate, registers, sends the person to /authorize with PKCE and exchanges the code.
// Shared by test/worker/oauth.test.ts (the repository's test Worker) and
// test/consumer/oauth.test.ts (the README's quick start from the tarballs).
import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { expect } from 'vitest';

/**
 * The client's side of OAuth, kept in memory as a CLI would keep it on disk. Its redirect URI is a
 * loopback one nothing listens on: the test follows the consent page's redirect itself.
 */
export class TestOAuthClient implements OAuthClientProvider {
  readonly redirectUrl = 'http://127.0.0.1:9/callback';
  authorizationUrl: URL | undefined;
  private information: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';

  get clientMetadata() {
    return {
      client_name: 'toolctx OAuth test',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** A client that asks for a token for `resource` rather than the one the metadata names. */
export class NarrowOAuthClient extends TestOAuthClient {
  constructor(private readonly resource: string) {
    super();
  }
  async validateResourceURL() {
    return new URL(this.resource);
  }
}

export interface SignedIn {
  client: Client;
  oauth: TestOAuthClient;
  /** Every request the MCP client made, as `METHOD /path`. */
  requests: string[];
  token: string;
}

/**
 * The MCP SDK client at `${origin}/mcp` signs in as `user` (the Worker's consent page signs in
 * whoever `?user=` names) and connects.
 */
export async function signIn(origin: string, user: string, oauth = new TestOAuthClient()): Promise<SignedIn> {
  const requests: string[] = [];
  const logged: typeof fetch = (input, init) => {
    requests.push(
      `${init?.method ?? 'GET'} ${new URL(input instanceof Request ? input.url : input).pathname}`,
    );
    return fetch(input, init);
  };
  const endpoint = new URL(`${origin}/mcp`);
  const first = new StreamableHTTPClientTransport(endpoint, { authProvider: oauth, fetch: logged });
  // No token yet: the client discovers, registers and hands the person the authorization URL.
  await expect(new Client({ name: user, version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  const authorize = new URL(oauth.authorizationUrl!);
  authorize.searchParams.set('user', user);
  const consent = await fetch(authorize, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(oauth.redirectUrl);
  await first.finishAuth(back.searchParams.get('code')!);
  const client = new Client({ name: user, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: oauth, fetch: logged }));
  return { client, oauth, requests, token: oauth.tokens()!.access_token };
}

/** The text parts of a tools/call result, joined. */
export const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('');
