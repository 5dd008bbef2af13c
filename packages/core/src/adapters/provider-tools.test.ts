import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { toAnthropicTools, toOpenAiResponsesTools, toOpenAiTools } from './provider-tools.js';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Get the current weather in a given location',
  inputSchema: z.object({ location: z.string().describe('The city and state, e.g. San Francisco, CA') }),
  execute: ({ location }) => `Sunny in ${location}`,
});
const sendMail = defineTool({
  name: 'send_mail',
  description: 'Sends an email.',
  inputSchema: z.object({ to: z.string(), body: z.string().optional() }),
  effect: 'send',
  execute: () => 'sent',
});
const runtime = createRuntime({ tools: [getWeather, sendMail] });

// The documented get_weather example's parameters (OpenAI's strict example adds additionalProperties: false).
const weatherParameters = {
  type: 'object',
  properties: {
    location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
  },
  required: ['location'],
};

/** Both providers: names of 1–64 of `a-zA-Z0-9_-`, and an object JSON Schema without `$schema`. */
function expectProviderSafe(name: string, schema: Record<string, unknown>) {
  expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  expect(schema.type).toBe('object');
  expect(schema).not.toHaveProperty('$schema');
}

describe('tool lists for model providers', () => {
  it('gives OpenAI Chat Completions tools exactly as its docs show them', () => {
    // https://platform.openai.com/docs/guides/function-calling (Chat Completions example)
    const [weather] = toOpenAiTools([getWeather]);
    expect(weather).toEqual({
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Get the current weather in a given location',
        parameters: weatherParameters,
      },
    });
    expect(Object.keys(weather!)).toEqual(['type', 'function']);
    expectProviderSafe(weather!.function.name, weather!.function.parameters);
    expect(toOpenAiTools([getWeather], { strict: true })[0]!.function.strict).toBe(true);
  });

  it('gives OpenAI Responses tools flat, with strict stated', () => {
    // https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
    expect(toOpenAiResponsesTools(runtime)[0]).toEqual({
      type: 'function',
      name: 'get_weather',
      description: 'Get the current weather in a given location',
      parameters: weatherParameters,
      strict: false,
    });
  });

  it('gives Anthropic tools exactly as its docs show them', () => {
    // https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use
    const [weather] = toAnthropicTools(runtime);
    expect(weather).toEqual({
      name: 'get_weather',
      description: 'Get the current weather in a given location',
      input_schema: weatherParameters,
    });
    expect(Object.keys(weather!)).toEqual(['name', 'description', 'input_schema']);
    expectProviderSafe(weather!.name, weather!.input_schema);
  });

  it('keeps the runtime-only facts out and follows the phase', () => {
    const all = toAnthropicTools(runtime);
    expect(all.map((tool) => tool.name)).toEqual(['get_weather', 'send_mail']);
    expect(JSON.stringify(all)).not.toContain('effect');
    expect(toOpenAiTools(runtime, { phase: 'plan' }).map((tool) => tool.function.name)).toEqual([
      'get_weather',
    ]);
    expect(toAnthropicTools([runtime.listTools()[1]!])[0]!.input_schema).toMatchObject({ required: ['to'] });
  });
});
