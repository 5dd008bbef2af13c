// What the Node quick starts reach that this machine cannot: a remote MCP server, a model, and
// OpenAI's API. Each shim is loaded with `node --import` beside the verbatim example and stands in
// for one outside service, so the example itself runs unchanged.

/** https://tools.example.com/mcp: a toolctx MCP server in the same process (stateless, JSON answers). */
export const remoteMcpShim = `
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { createRuntime, defineTool } from '@toolctx/core';
import { serveMcp } from '@toolctx/core/mcp';
import { z } from 'zod';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes the text.',
  inputSchema: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});
const runtime = createRuntime({ tools: [echo] });
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  if (new URL(request.url).host !== 'tools.example.com') return realFetch(input, init);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await serveMcp(runtime).connect(transport);
  return transport.handleRequest(request);
};
`;

/** The AI SDK's default provider (what a model id string resolves through): a mock model from ai/test. */
export const mockModelShim = `
import { MockLanguageModelV3 } from 'ai/test';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const model = (modelId) =>
  new MockLanguageModelV3({
    modelId,
    doGenerate: async ({ prompt }) => {
      const results = prompt.filter((m) => m.role === 'tool').flatMap((m) => m.content);
      if (results.length === 0)
        return {
          content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'count_words', input: '{"text":"to be or not to be"}' }],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        };
      return {
        content: [{ type: 'text', text: 'count_words said ' + JSON.stringify(results[0].output) }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
globalThis.AI_SDK_DEFAULT_PROVIDER = { languageModel: model };
`;

/** api.openai.com's chat completions: asks for one count_words call. */
export const openAiShim = `
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  if (new URL(request.url).host !== 'api.openai.com') return realFetch(input, init);
  const body = await request.json();
  const offered = body.tools.map((tool) => tool.function.name).join(',');
  const call = { id: 'call_1', type: 'function', function: { name: 'count_words', arguments: '{"text":"to be or not to be"}' } };
  console.log('offered: ' + offered);
  return Response.json({ choices: [{ message: { role: 'assistant', tool_calls: [call] } }] });
};
`;
