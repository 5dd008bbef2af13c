// Approvals by elicitation where users meet them: the MCP test Worker under `wrangler dev`, and the
// official SDK client over real HTTP. The Worker's /mcp-approve serves `delete_note`, which needs
// approval; the question reaches the client on the call's stream and its answer decides the call.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
import { edgeDir } from './example-worker.js';

let dev: WranglerDev;
beforeAll(async () => {
  dev = await startWranglerDev({ cwd: edgeDir, config: 'src/mcp/wrangler.test.jsonc' });
});
afterAll(() => dev?.stop());

async function connect(answer: (request: ElicitRequest) => ElicitResult) {
  const client = new Client({ name: 'approver', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const asked: ElicitRequest[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request);
    return answer(request);
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${dev.url}/mcp-approve`)));
  return { client, asked };
}

const deleted = async (client: Client) =>
  (
    (await client.callTool({ name: 'deleted_notes', arguments: {} })).structuredContent as {
      deleted: string[];
    }
  ).deleted;

describe('approval by elicitation under wrangler dev', () => {
  it('asks the person over HTTP and runs the tool once they accept', async () => {
    const { client, asked } = await connect(() => ({ action: 'accept', content: { reason: 'fine' } }));
    const result = await client.callTool({ name: 'delete_note', arguments: { note: 'http-1' } });
    expect(result.content).toEqual([{ type: 'text', text: 'deleted http-1' }]);
    expect(asked.map((request) => request.params.message.split('\n')[0])).toEqual([
      'Allow "Delete a note" (delete_note) to run?',
    ]);
    expect(await deleted(client)).toEqual(['http-1']);
    await client.close();
  });

  it('denies the call over HTTP when they decline, and the tool does not run', async () => {
    const { client } = await connect(() => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'delete_note', arguments: { note: 'http-2' } });
    expect((result.structuredContent as { error: { kind: string } }).error.kind).toBe('approval-denied');
    expect(await deleted(client)).not.toContain('http-2');
    await client.close();
  });
});
