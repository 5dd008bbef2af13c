import { it } from 'vitest';
import { startNodeMcpServer } from './node-server.js';

it('raw', async () => {
  const { url, stop } = await startNodeMcpServer();
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'test_tool_with_task',
      arguments: {},
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {
          elicitation: {},
          extensions: { 'io.modelcontextprotocol/tasks': {} },
        },
      },
    },
  };
  const r = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'test_tool_with_task',
    },
    body: JSON.stringify(body),
  });
  console.log(r.status, await r.text());
  await stop();
});
