// MCP 2026's custom headers (SEP-2243) at serveMcpHttp: a tool parameter declared with
// `x-mcp-header` must say the same in its `Mcp-Param-*` header as in the body, literal or Base64.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../runtime/create-runtime.js';
import { mcp2026Request } from '../testing/mcp-requests.js';
import { defineTool } from '../tools/define-tool.js';
import { serveMcpHttp } from './serve-mcp-http.js';

const routed = defineTool({
  name: 'routed',
  description: 'Answers the region it was routed by.',
  inputSchema: z.object({
    region: z.string().meta({ 'x-mcp-header': 'Region' }),
    note: z.string().optional(),
  }),
  execute: ({ region }) => `region ${region}`,
});
const mcp = serveMcpHttp(createRuntime({ tools: [routed] }), { tasks: false });

async function call(args: Record<string, unknown>, region?: string) {
  const headers: Record<string, string> = region === undefined ? {} : { 'mcp-param-region': region };
  const response = await mcp.fetch(
    mcp2026Request('tools/call', { name: 'routed', arguments: args }, { headers, id: 3 }),
  );
  return { status: response.status, body: await response.json() };
}

const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

describe('Mcp-Param headers (SEP-2243)', () => {
  it('runs the call when the header says what the body says, literal or as =?base64?…?=', async () => {
    expect((await call({ region: 'eu-west' }, 'eu-west')).body.result.content).toEqual([
      { type: 'text', text: 'region eu-west' },
    ]);
    const answer = await call({ region: 'Zürich' }, `=?base64?${base64('Zürich')}?=`);
    expect(answer.body.result.content[0].text).toBe('region Zürich');
  });

  it('refuses with 400 and -32020, naming the header, a missing, different or malformed header', async () => {
    for (const [args, header] of [
      [{ region: 'eu' }, undefined],
      [{ region: 'eu' }, 'us'],
      [{ region: 'Hello' }, '=?base64?SGVsbG8?='],
      [{ region: 'Hello' }, '=?base64?SGVs!!!bG8=?='],
    ] as const) {
      const { status, body } = await call(args, header);
      expect(status).toBe(400);
      expect(body).toMatchObject({
        id: 3,
        error: { code: -32020, message: expect.stringContaining('Mcp-Param-Region') },
      });
    }
  });

  it('publishes x-mcp-header in the tool list, where clients read it', async () => {
    const response = await mcp.fetch(mcp2026Request('tools/list', {}));
    const { result } = await response.json();
    expect(result.tools[0].inputSchema.properties.region).toMatchObject({ 'x-mcp-header': 'Region' });
  });
});
