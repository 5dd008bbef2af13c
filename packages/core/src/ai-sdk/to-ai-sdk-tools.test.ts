import { generateText, stepCountIs, streamText } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolctxError } from '../errors.js';
import type { ToolEvent } from '../events/catalogue.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { toAiSdkTools } from './to-ai-sdk-tools.js';

const seen = { started: 0, aborted: 0 };

const tools = [
  defineTool({
    name: 'count_words',
    description: 'Counts the words in a text.',
    inputSchema: z.object({ text: z.string() }),
    execute: ({ text }) => text.split(/\s+/).filter(Boolean).length,
  }),
  defineTool({
    name: 'lookup',
    description: 'Looks a key up; the store is down.',
    inputSchema: z.object({ key: z.string() }),
    execute: () => {
      throw new ToolctxError('tool-error', 'The store is down; try later.', { retryable: true });
    },
  }),
  defineTool({
    name: 'crawl',
    description: 'Crawls until cancelled.',
    inputSchema: z.object({}),
    execute: (_args, ctx) =>
      new Promise((_resolve, reject) => {
        seen.started++;
        ctx.signal.addEventListener('abort', () => {
          seen.aborted++;
          reject(ctx.signal.reason);
        });
      }),
  }),
];

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** What the model was shown of each tool result, by tool call id. */
function toolOutputs(options: CallOptions): Record<string, unknown> {
  const outputs: Record<string, unknown> = {};
  for (const message of options.prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content)
      if (part.type === 'tool-result') outputs[part.toolCallId] = part.output;
  }
  return outputs;
}

function setup() {
  const events: ToolEvent[] = [];
  const runtime = createRuntime({ tools, sinks: [(event) => void events.push(event)] });
  const run = runtime.startRun();
  return { runtime, run, events, aiTools: toAiSdkTools(run) };
}

describe('toAiSdkTools in the AI SDK loop', () => {
  it('gives every tool with its description and JSON Schema', () => {
    const { aiTools } = setup();
    expect(Object.keys(aiTools)).toEqual(['count_words', 'lookup', 'crawl']);
    expect(aiTools.count_words!.description).toBe('Counts the words in a text.');
  });

  it('offers what the run’s phase allows: in plan, only read tools', () => {
    const write = defineTool({
      name: 'save',
      description: 'Saves.',
      inputSchema: z.object({}),
      effect: 'write',
      execute: () => 'saved',
    });
    const runtime = createRuntime({ tools: [...tools, write] });
    expect(Object.keys(toAiSdkTools(runtime.startRun()))).toEqual(['count_words', 'lookup', 'crawl', 'save']);
    expect(Object.keys(toAiSdkTools(runtime.startRun({ phase: 'plan' })))).toEqual([
      'count_words',
      'lookup',
      'crawl',
    ]);
  });

  it('narrows the set by names, and refuses a name the run does not offer', () => {
    const { run } = setup();
    expect(Object.keys(toAiSdkTools(run, { names: ['lookup', 'count_words'] }))).toEqual([
      'lookup',
      'count_words',
    ]);
    expect(() => toAiSdkTools(run, { names: ['count_words', 'delete_all'] })).toThrow(
      /does not offer "delete_all"\. It offers: count_words, lookup, crawl/,
    );
  });

  it('runs the tools the mock model calls, returning results and failures as tool errors', async () => {
    const { run, events, aiTools } = setup();
    const model = new MockLanguageModelV3({
      doGenerate: async (options): Promise<GenerateResult> => {
        const outputs = toolOutputs(options);
        if (Object.keys(outputs).length === 0) {
          return {
            content: [
              {
                type: 'tool-call',
                toolCallId: 'tc_count',
                toolName: 'count_words',
                input: '{"text":"to be or not"}',
              },
              { type: 'tool-call', toolCallId: 'tc_lookup', toolName: 'lookup', input: '{"key":"k"}' },
            ],
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          };
        }
        return {
          content: [{ type: 'text', text: JSON.stringify(outputs) }],
          finishReason: { unified: 'stop', raw: undefined },
          usage,
          warnings: [],
        };
      },
    });
    const result = await generateText({ model, tools: aiTools, stopWhen: stepCountIs(3), prompt: 'Go.' });
    expect(JSON.parse(result.text)).toEqual({
      tc_count: { type: 'text', value: '4' },
      tc_lookup: { type: 'error-text', value: 'The store is down; try later.' },
    });
    const errorPart = result.steps[0]!.content.find((part) => part.type === 'tool-error');
    expect(errorPart).toMatchObject({ toolName: 'lookup', toolCallId: 'tc_lookup' });
    expect((errorPart as { error: ToolctxError }).error.info).toMatchObject({
      kind: 'tool-error',
      retryable: true,
    });
    const started = events.filter((event) => event.type === 'tool.started').map((event) => event.callId);
    expect(started).toEqual(['tc_count', 'tc_lookup']);
    expect(events.every((event) => event.runId === run.runId)).toBe(true);
  });

  it('wires streamText’s abort signal to the toolctx call, so the tool sees it fire', async () => {
    const { events, aiTools } = setup();
    const before = { ...seen };
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: convertArrayToReadableStream([
          { type: 'stream-start', warnings: [] },
          { type: 'tool-call', toolCallId: 'tc_crawl', toolName: 'crawl', input: '{}' },
          { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage },
        ]),
      }),
    });
    const controller = new AbortController();
    const result = streamText({
      model,
      tools: aiTools,
      stopWhen: stepCountIs(3),
      prompt: 'Crawl.',
      abortSignal: controller.signal,
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) {
      parts.push(part.type);
      if (part.type === 'tool-call') {
        while (seen.started === before.started) await new Promise((resolve) => setTimeout(resolve, 1));
        controller.abort();
      }
    }
    expect(parts).toContain('abort');
    expect(seen.aborted).toBe(before.aborted + 1);
    const failed = events.find((event) => event.type === 'tool.failed');
    expect(failed).toMatchObject({ callId: 'tc_crawl', data: { error: { kind: 'aborted' } } });
  });
});
