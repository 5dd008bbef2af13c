// The AI SDK's own tool approval and preliminary results, driven by its generateText and streamText
// with its mock model. The same file runs on ai 6 (here) and ai 7 (vitest.ai7.config.ts, Node 22).
import { generateText, type ModelMessage, stepCountIs, streamText } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryApprovalPort } from '../approval/memory-approval-port.js';
import type { ToolEvent } from '../events/catalogue.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import type { AiSdkCallMeta } from './to-ai-sdk-tools.js';
import { toAiSdkTools } from './to-ai-sdk-tools.js';

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A model that calls `publish` with `text` first, then says what each tool result told it. */
function scripted(calls: { toolName: string; input: unknown }[]) {
  let made = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options: CallOptions) => {
      const outputs: Record<string, unknown> = {};
      for (const message of options.prompt) {
        if (message.role !== 'tool') continue;
        for (const part of message.content)
          if (part.type === 'tool-result') outputs[part.toolName] = part.output;
      }
      const next = calls[made];
      if (next && Object.keys(outputs).length === made) {
        made++;
        return {
          content: [
            {
              type: 'tool-call',
              toolCallId: `tc_${made}`,
              toolName: next.toolName,
              input: JSON.stringify(next.input),
            },
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
}

function setup() {
  const ran: { text: string; approvalId?: string; meta?: AiSdkCallMeta }[] = [];
  const publish = defineTool({
    name: 'publish',
    description: 'Publishes a note.',
    inputSchema: z.object({ text: z.string() }),
    effect: 'write',
    needsApproval: ({ text }) => !text.startsWith('draft'),
    execute: ({ text }, ctx) => {
      const entry: (typeof ran)[number] = { text, meta: ctx.meta?.aiSdk as AiSdkCallMeta };
      if (ctx.approval) entry.approvalId = ctx.approval.approvalId;
      ran.push(entry);
      return `published ${text}`;
    },
  });
  const look = defineTool({
    name: 'look',
    description: 'Looks.',
    inputSchema: z.object({}),
    execute: () => 'looked',
  });
  const events: ToolEvent[] = [];
  const runtime = createRuntime({
    tools: [publish, look],
    approval: createMemoryApprovalPort(),
    sinks: [(event) => void events.push(event)],
  });
  const run = runtime.startRun();
  return { run, ran, events, tools: toAiSdkTools(run) };
}

/** The conversation after a paused generateText, with the person's answer to its approval request. */
function answered(
  prompt: string,
  response: { messages: ModelMessage[] },
  approvalId: string,
  approved: boolean,
): ModelMessage[] {
  return [
    { role: 'user', content: prompt },
    ...response.messages,
    {
      role: 'tool',
      content: [
        approved
          ? { type: 'tool-approval-response', approvalId, approved }
          : { type: 'tool-approval-response', approvalId, approved, reason: 'Not today.' },
      ],
    },
  ];
}

function approvalRequest(content: readonly { type: string }[]) {
  const part = content.find((part) => part.type === 'tool-approval-request');
  expect(part, 'generateText paused with a tool-approval-request').toBeDefined();
  return part as unknown as { approvalId: string; toolCall: { toolCallId: string; toolName: string } };
}

describe('toAiSdkTools and the AI SDK’s tool approval', () => {
  it('pauses generateText with a tool-approval-request, the call waiting in the run; approved, it runs on the run’s token', async () => {
    const { run, ran, events, tools } = setup();
    const prompt = 'Publish it.';
    const first = await generateText({
      model: scripted([{ toolName: 'publish', input: { text: 'hello' } }]),
      tools,
      stopWhen: stepCountIs(4),
      prompt,
    });
    const request = approvalRequest(first.content);
    expect(request.toolCall).toMatchObject({ toolCallId: 'tc_1', toolName: 'publish' });
    expect(ran).toEqual([]);
    const waiting = run.callStatus('tc_1');
    expect(waiting).toMatchObject({ status: 'input_required', approvalId: expect.stringMatching(/^apr_/) });

    const second = await generateText({
      model: scripted([]),
      tools,
      stopWhen: stepCountIs(4),
      messages: answered(prompt, first.response, request.approvalId, true),
    });
    expect(JSON.parse(second.text)).toEqual({ publish: { type: 'text', value: 'published hello' } });
    expect(ran).toHaveLength(1);
    expect(ran[0]).toMatchObject({ text: 'hello', approvalId: waiting!.approvalId });
    expect(run.callStatus('tc_1')).toMatchObject({ status: 'completed' });
    const decided = events.filter((event) => event.type === 'approval.decided');
    expect(decided).toMatchObject([{ callId: 'tc_1', data: { approved: true } }]);
  });

  it('never runs a call the person denied in the SDK, and settles it denied in the run', async () => {
    const { run, ran, tools } = setup();
    const prompt = 'Publish it.';
    const model = scripted([
      { toolName: 'publish', input: { text: 'hello' } },
      { toolName: 'look', input: {} },
    ]);
    const first = await generateText({ model, tools, stopWhen: stepCountIs(4), prompt });
    const request = approvalRequest(first.content);
    const second = await generateText({
      model,
      tools,
      stopWhen: stepCountIs(4),
      messages: answered(prompt, first.response, request.approvalId, false),
    });
    expect(ran).toEqual([]);
    expect(JSON.parse(second.text)).toMatchObject({
      publish: { type: 'execution-denied', reason: 'Not today.' },
      look: { type: 'text', value: 'looked' },
    });
    // The next tool the set ran read the denial from the messages.
    const denied = run.callStatus('tc_1');
    expect(denied?.status).toBe('failed');
    expect(denied?.result).toMatchObject({ ok: false, error: { kind: 'approval-denied' } });
  });

  it('refuses, by the run’s hash check, arguments changed between the request and the response', async () => {
    const { run, ran, events, tools } = setup();
    const prompt = 'Publish it.';
    const first = await generateText({
      model: scripted([{ toolName: 'publish', input: { text: 'hello' } }]),
      tools,
      stopWhen: stepCountIs(4),
      prompt,
    });
    const request = approvalRequest(first.content);
    const messages = answered(prompt, first.response, request.approvalId, true);
    // The conversation comes back from a client: its tool call now says something else.
    for (const message of messages) {
      if (message.role !== 'assistant' || typeof message.content === 'string') continue;
      for (const part of message.content) if (part.type === 'tool-call') part.input = { text: 'goodbye' };
    }
    const second = await generateText({ model: scripted([]), tools, stopWhen: stepCountIs(4), messages });
    expect(ran).toEqual([]);
    expect(JSON.parse(second.text).publish).toMatchObject({
      type: 'error-text',
      value: expect.stringMatching(/arguments changed after they were approved/),
    });
    const failed = events.find((event) => event.type === 'tool.failed' && event.callId === 'tc_1');
    expect(failed).toMatchObject({
      data: { error: { kind: 'approval-invalid', details: { reason: 'args-changed' } } },
    });
    expect(run.callStatus('tc_1')?.status).toBe('failed');
  });

  it('does not pause a call the tool’s rule lets through, and hands the tool the SDK’s execute options', async () => {
    const { ran, tools } = setup();
    const context = { tenantNote: 'from the app' };
    const sdkContext = { experimental_context: context, toolsContext: { publish: context } };
    const result = await generateText({
      model: scripted([{ toolName: 'publish', input: { text: 'draft one' } }]),
      tools,
      stopWhen: stepCountIs(4),
      prompt: 'Draft it.',
      ...sdkContext,
    });
    expect(result.content.some((part) => part.type === 'tool-approval-request')).toBe(false);
    expect(JSON.parse(result.text)).toEqual({ publish: { type: 'text', value: 'published draft one' } });
    expect(ran[0]?.meta).toMatchObject({ toolCallId: 'tc_1', context });
    expect(ran[0]?.meta?.messages).toEqual([{ role: 'user', content: 'Draft it.' }]);
  });
});

describe('toAiSdkTools and preliminary results', () => {
  const slow = defineTool({
    name: 'gather',
    description: 'Gathers sources.',
    inputSchema: z.object({ count: z.number() }),
    execute: async ({ count }, ctx) => {
      for (let done = 1; done <= count; done++) {
        ctx.progress({ message: `source ${done}`, done, total: count });
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return { sources: count };
    },
  });

  it('streams ctx.progress as tool-result parts with preliminary: true, then the final output the model reads', async () => {
    const run = createRuntime({ tools: [slow] }).startRun();
    let step = 0;
    const model = new MockLanguageModelV3({
      doStream: async (options) => {
        step++;
        const read = options.prompt
          .filter((message) => message.role === 'tool')
          .flatMap((message) => message.content)
          .find((part) => part.type === 'tool-result');
        const chunks =
          step === 1
            ? [
                { type: 'tool-call' as const, toolCallId: 'tc_g', toolName: 'gather', input: '{"count":3}' },
                {
                  type: 'finish' as const,
                  finishReason: { unified: 'tool-calls' as const, raw: undefined },
                  usage,
                },
              ]
            : [
                { type: 'text-start' as const, id: 't' },
                {
                  type: 'text-delta' as const,
                  id: 't',
                  delta: JSON.stringify(read && 'output' in read ? read.output : null),
                },
                { type: 'text-end' as const, id: 't' },
                {
                  type: 'finish' as const,
                  finishReason: { unified: 'stop' as const, raw: undefined },
                  usage,
                },
              ];
        return { stream: convertArrayToReadableStream([{ type: 'stream-start', warnings: [] }, ...chunks]) };
      },
    });
    const result = streamText({
      model,
      tools: toAiSdkTools(run),
      stopWhen: stepCountIs(3),
      prompt: 'Gather.',
    });
    const parts: { preliminary?: boolean; output: unknown }[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'tool-result') parts.push({ preliminary: part.preliminary, output: part.output });
    }
    const preliminary = parts.filter((part) => part.preliminary).map((part) => part.output);
    expect(preliminary.slice(0, 3)).toEqual(
      [1, 2, 3].map((done) => ({
        type: 'progress',
        progress: { message: `source ${done}`, done, total: 3 },
        n: done,
      })),
    );
    expect(parts.at(-1)).toEqual({ preliminary: undefined, output: { sources: 3 } });
    // What the model read is the transcript copy, as without preliminaries.
    expect(JSON.parse(await result.text)).toEqual({ type: 'text', value: '{"sources":3}' });
  });
});
