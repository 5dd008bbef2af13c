import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ContentPart, withParts } from '../content/content-part.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { toAiSdkTools } from './to-ai-sdk-tools.js';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const parts: ContentPart[] = [
  { type: 'text', text: 'The chart:' },
  { type: 'image', data: PNG, mediaType: 'image/png' },
  { type: 'audio', data: PNG, mediaType: 'audio/wav' },
  { type: 'resource', uri: 'test://files/report.pdf', mediaType: 'application/pdf', blob: PNG },
  { type: 'resource', uri: 'test://notes', text: 'some notes' },
  { type: 'resource-link', uri: 'test://big.csv', name: 'big.csv' },
];
const modelContent = [
  { type: 'text', text: 'The chart:' },
  { type: 'image-data', data: PNG, mediaType: 'image/png' },
  { type: 'file-data', data: PNG, mediaType: 'audio/wav' },
  { type: 'file-data', data: PNG, mediaType: 'application/pdf', filename: 'report.pdf' },
  { type: 'text', text: '[resource test://notes]\nsome notes' },
  { type: 'text', text: '[resource link big.csv test://big.csv]' },
];

const chart = defineTool({
  name: 'chart',
  description: 'Draws a chart.',
  inputSchema: z.object({}),
  execute: () => withParts(parts, { points: 3 }),
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

describe('toAiSdkTools and content parts', () => {
  it('shows the model the parts as AI SDK content and outputs them with the value', async () => {
    const run = createRuntime({ tools: [chart] }).startRun();
    const shown: unknown[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        const results = options.prompt.flatMap((message) =>
          message.role === 'tool' ? message.content.filter((part) => part.type === 'tool-result') : [],
        );
        shown.push(...results.map((part) => part.output));
        return results.length === 0
          ? {
              content: [{ type: 'tool-call', toolCallId: 'tc_chart', toolName: 'chart', input: '{}' }],
              finishReason: { unified: 'tool-calls', raw: undefined },
              usage,
              warnings: [],
            }
          : {
              content: [{ type: 'text', text: 'done' }],
              finishReason: { unified: 'stop', raw: undefined },
              usage,
              warnings: [],
            };
      },
    });
    const result = await generateText({
      model,
      tools: toAiSdkTools(run),
      stopWhen: stepCountIs(3),
      prompt: 'Go.',
    });
    expect(shown).toEqual([{ type: 'content', value: modelContent }]);
    const output = result.steps[0]!.toolResults[0]!.output as { parts: unknown; value: unknown };
    expect(output).toMatchObject({ parts, value: { points: 3 } });
  });

  it('shows the same content when the messages are rebuilt from the stored output', async () => {
    const tools = toAiSdkTools(createRuntime({ tools: [chart] }).startRun());
    const output = JSON.parse(JSON.stringify(withParts(parts, { points: 3 })));
    const shown = await tools.chart!.toModelOutput!({ toolCallId: 'from-history', input: {}, output });
    expect(shown).toEqual({ type: 'content', value: modelContent });
  });
});
