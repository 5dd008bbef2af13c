import type { ToolExecutionOptions } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '../runtime/create-runtime.js';
import type { CallableRun } from '../runtime/run-api.js';
import { defineTool, toolSchema } from '../tools/define-tool.js';
import { toAiSdkTools } from './to-ai-sdk-tools.js';

const countWords = defineTool({
  name: 'count_words',
  description: 'Counts the words in a text.',
  inputSchema: z.object({ text: z.string() }),
  execute: ({ text }) => text.split(/\s+/).filter(Boolean).length,
});

/** A run as a Worker door gives it: it calls and has events, but cannot list its tools. */
function doorRun(): CallableRun {
  const run = createRuntime({ tools: [countWords] }).startRun();
  return { runId: run.runId, events: run.events, call: (request) => run.call(request) };
}

const options = { toolCallId: 'call_1', messages: [] } as ToolExecutionOptions;

describe('toAiSdkTools on a run of any door', () => {
  it('offers the tools given and calls them through a run that cannot list its own', async () => {
    const set = toAiSdkTools(doorRun(), { tools: [toolSchema(countWords)], preliminary: false });
    expect(Object.keys(set)).toEqual(['count_words']);
    expect(set.count_words!.description).toBe('Counts the words in a text.');
    expect(await set.count_words!.execute!({ text: 'to be or not' }, options)).toBe(4);
  });

  it('narrows the tools given by names, as for a local run', () => {
    const other = { ...toolSchema(countWords), name: 'other' };
    const set = toAiSdkTools(doorRun(), { tools: [toolSchema(countWords), other], names: ['other'] });
    expect(Object.keys(set)).toEqual(['other']);
  });

  it('refuses, in types and at run time, a run that cannot list its tools when no tools are given', () => {
    // @ts-expect-error a run without listTools needs { tools }
    expect(() => toAiSdkTools(doorRun())).toThrow(/cannot list its tools.*pass \{ tools/);
  });
});
