// MCP 2026: a credential provider's sign-in (`authorization-required`) reaches the client as a URL
// input request in the call's input_required round — never a form — and a client that declared
// only form elicitation is told with -32021 what to declare.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CredentialProvider } from '../credentials/credential-provider.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { mcp2026Request } from '../testing/mcp-requests.js';
import { defineTool } from '../tools/define-tool.js';
import { serveMcpHttp } from './serve-mcp-http.js';

const AUTH_URL = 'https://auth.example/authorize?state=S1';
const provider: CredentialProvider = {
  resolve: async () => ({
    kind: 'authorization-required',
    authorizationUrl: AUTH_URL,
    authorizationId: 'auth_1',
  }),
};
const calendar = defineTool({
  name: 'calendar',
  description: 'Reads the calendar; needs the person to sign in.',
  inputSchema: z.object({}),
  needs: { credential: 'calendar' },
  execute: (_args, ctx) => `events for ${ctx.credential?.value}`,
});
const mcp = serveMcpHttp(createRuntime({ tools: [calendar], credentials: provider }), { tasks: false });

async function call(elicitation: Record<string, unknown>) {
  const meta = { 'io.modelcontextprotocol/clientCapabilities': { elicitation } };
  const response = await mcp.fetch(
    mcp2026Request('tools/call', { name: 'calendar', arguments: {} }, { meta }),
  );
  return { status: response.status, body: await response.json() };
}

describe('a sign-in over MCP 2026', () => {
  it('is a URL input request in the round, with the provider’s page, never a form', async () => {
    const { body } = await call({ form: {}, url: {} });
    expect(body.result.resultType).toBe('input_required');
    const requests = Object.values(
      body.result.inputRequests as Record<string, { params: Record<string, unknown> }>,
    );
    expect(requests).toHaveLength(1);
    expect(requests[0]!.params).toMatchObject({ mode: 'url', url: AUTH_URL });
    expect(requests[0]!.params).not.toHaveProperty('requestedSchema');
  });

  it('answers -32021, naming URL elicitation, to a client that declared forms only', async () => {
    const { status, body } = await call({ form: {} });
    expect(status).toBe(400);
    expect(body.error.code).toBe(-32021);
  });
});
