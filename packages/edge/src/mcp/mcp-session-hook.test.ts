import { SELF } from 'cloudflare:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';

// McpSession's configureServer hook: the test Worker's session adds a prompt with a completable
// argument through the SDK's own API, and the official SDK client sees it next to the tools.
async function connect() {
  const client = new Client({ name: 'hook-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('http://toolctx.test/mcp'), {
    fetch: (input, init) => SELF.fetch(new Request(input, init)),
  });
  await client.connect(transport);
  return client;
}

describe('the configureServer hook of McpSession', () => {
  it('serves the prompts a subclass registered, next to the tools, and declares both capabilities', async () => {
    const client = await connect();
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.prompts).toBeDefined();
    expect(capabilities?.completions).toBeDefined();
    expect(capabilities?.tools).toBeDefined();
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['greet']);
    expect(prompts[0]?.arguments).toEqual([{ name: 'name', required: true }]);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('add');
    await client.close();
  });

  it('gets the prompt with its arguments filled in', async () => {
    const client = await connect();
    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } }]);
    await client.close();
  });

  it("completes the prompt's argument with the subclass's completer", async () => {
    const client = await connect();
    const { completion } = await client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'name', value: 'A' },
    });
    expect(completion.values).toEqual(['Ada', 'Alan']);
    await client.close();
  });
});
