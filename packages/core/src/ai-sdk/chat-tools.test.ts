import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryApprovalPort } from '../memory/index.js';
import { createRuntime } from '../runtime/create-runtime.js';
import type { CallableRun } from '../runtime/run-api.js';
import { defineTool } from '../tools/define-tool.js';
import { type ChatToolOutput, chatTools } from './chat-tools.js';

/** A chat that only records what it is told, as `addToolOutput` receives it. */
function recordingChat() {
  const answers: ChatToolOutput[] = [];
  let stops = 0;
  const chat = {
    addToolOutput: (answer: ChatToolOutput) => void answers.push(answer),
    stop: async () => void stops++,
  };
  return { chat, answers, stops: () => stops };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
};

function setUp() {
  let runs = 0;
  const echo = defineTool({
    name: 'echo',
    description: 'Echoes.',
    inputSchema: z.object({ text: z.string() }),
    execute: async ({ text }) => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return text;
    },
  });
  const remove = defineTool({
    name: 'remove',
    description: 'Removes.',
    inputSchema: z.object({}),
    needsApproval: true,
    execute: () => 'removed',
  });
  const run = createRuntime({ tools: [echo, remove], approval: createMemoryApprovalPort() }).startRun();
  return { run, runs: () => runs };
}

describe('chatTools', () => {
  it('a chat call that asks its user waits for the answer the run is given (the status form’s), then answers the chat', async () => {
    const pick = defineTool({
      name: 'pick',
      description: 'Asks which.',
      inputSchema: z.object({}),
      execute: (_args, ctx) =>
        ctx.ask({
          message: 'Which?',
          schema: { type: 'object', properties: { which: { type: 'string', enum: ['a', 'b'] } } },
        }),
    });
    const run = createRuntime({ tools: [pick] }).startRun();
    const { chat, answers } = recordingChat();
    chatTools(chat, run).onToolCall({ toolCall: { toolCallId: 'tc_ask', toolName: 'pick', input: {} } });
    await until(() => run.asks().length > 0);
    expect(answers).toEqual([]);
    const [open] = run.asks();
    expect(open).toMatchObject({ toolCallId: 'tc_ask', message: 'Which?' });
    expect(await run.answer(open!.askId, { action: 'accept', values: { which: 'b' } })).toMatchObject({
      taken: true,
    });
    await until(() => answers.length > 0);
    expect(answers).toEqual([
      { tool: 'pick', toolCallId: 'tc_ask', output: { action: 'accept', values: { which: 'b' } } },
    ]);
  });

  it('runs a call once when a replayed stream hands it over again', async () => {
    const { run, runs } = setUp();
    const { chat, answers } = recordingChat();
    const tools = chatTools(chat, run);
    const toolCall = { toolCallId: 'tc_1', toolName: 'echo', input: { text: 'hi' } };
    expect(tools.onToolCall({ toolCall })).toBe(true);
    expect(tools.onToolCall({ toolCall })).toBe(true);
    await until(() => answers.length > 0);
    expect(answers).toEqual([{ tool: 'echo', toolCallId: 'tc_1', output: 'hi' }]);
    expect(runs()).toBe(1);
  });

  it('answers output-error naming the door’s failure when the run rejects, without its message', async () => {
    const { chat, answers } = recordingChat();
    const broken: CallableRun & { resume: () => never; cancel: () => boolean } = {
      runId: 'run_x',
      events: setUp().run.events,
      call: () => Promise.reject(new TypeError('secret detail')),
      resume: () => {
        throw new Error('unused');
      },
      cancel: () => false,
    };
    chatTools(chat, broken).onToolCall({ toolCall: { toolCallId: 'tc_1', toolName: 'echo', input: {} } });
    await until(() => answers.length > 0);
    expect(answers).toEqual([
      {
        tool: 'echo',
        toolCallId: 'tc_1',
        state: 'output-error',
        errorText: '`echo` could not be run: its door failed (TypeError).',
      },
    ]);
  });

  it('passes an approval that is not the chat’s to the run, and leaves the chat alone', async () => {
    const { run } = setUp();
    const { chat, answers } = recordingChat();
    const tools = chatTools(chat, run);
    const pending = await run.call({ tool: 'remove', args: {} });
    const approvalId = !pending.ok ? (pending.error.details?.approvalId as string) : '';
    expect(await tools.resume(approvalId, { approved: true })).toMatchObject({ ok: true, value: 'removed' });
    expect(answers).toEqual([]);
  });

  it('replaces the chat’s stop: it stops the chat once and answers the open calls as cancelled', async () => {
    const { run } = setUp();
    const { chat, answers, stops } = recordingChat();
    const tools = chatTools(chat, run);
    tools.onToolCall({ toolCall: { toolCallId: 'tc_1', toolName: 'echo', input: { text: 'hi' } } });
    expect(chat.stop).toBe(tools.stop);
    await chat.stop();
    expect(stops()).toBe(1);
    expect(answers).toEqual([
      {
        tool: 'echo',
        toolCallId: 'tc_1',
        state: 'output-error',
        errorText: 'The call was cancelled by its caller.',
      },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(answers).toHaveLength(1);
    expect(tools.cancel('tc_1')).toBe(false);
  });
});
