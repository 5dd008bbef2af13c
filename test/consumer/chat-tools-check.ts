// The source of a consumer's script for `chatTools` with the AI SDK's own `AbstractChat`, in Node
// (no browser): a scripted transport streams a client-side tool call, the tool runs through a run,
// the chat gets its output and sends again; a second chat is stopped while its tool runs.
export const chatToolsCheck = `import { createRuntime, defineTool } from '@toolctx/core';
import { chatTools } from '@toolctx/core/ai-sdk';
import {
  AbstractChat,
  type ChatInit,
  type ChatState,
  type ChatTransport,
  lastAssistantMessageIsCompleteWithToolCalls,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { z } from 'zod';

class Chat extends AbstractChat<UIMessage> {
  constructor({ messages = [], ...init }: ChatInit<UIMessage>) {
    const state: ChatState<UIMessage> = {
      status: 'ready',
      error: undefined,
      messages,
      pushMessage(message) {
        state.messages = [...state.messages, message];
      },
      popMessage() {
        state.messages = state.messages.slice(0, -1);
      },
      replaceMessage(index, message) {
        state.messages = state.messages.map((old, i) => (i === index ? message : old));
      },
      snapshot: (thing) => structuredClone(thing),
    };
    super({ ...init, state });
  }
}

// Each chat's call has an id of its own, as a provider's are: a call's id names its handle in the run.
const callIdOf = (toolName: string) => 'tc_' + toolName;

function scripted(toolName: string): { transport: ChatTransport<UIMessage>; requests: () => number } {
  let requests = 0;
  const transport: ChatTransport<UIMessage> = {
    async sendMessages() {
      requests++;
      const body: UIMessageChunk[] =
        requests === 1
          ? [
              {
                type: 'tool-input-available',
                toolCallId: callIdOf(toolName),
                toolName,
                input: { text: 'to be or not to be' },
              },
            ]
          : [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: 'six words' },
              { type: 'text-end', id: 't' },
            ];
      const chunks: UIMessageChunk[] = [{ type: 'start' }, { type: 'start-step' }, ...body, { type: 'finish-step' }, { type: 'finish' }];
      return new ReadableStream<UIMessageChunk>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      });
    },
    reconnectToStream: async () => null,
  };
  return { transport, requests: () => requests };
}

let aborted = false;
const countWords = defineTool({
  name: 'count_words',
  description: 'Counts words.',
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }, ctx) => {
    ctx.progress({ message: 'counting' });
    return text.split(/\\s+/).length;
  },
});
const waitForStop = defineTool({
  name: 'wait_for_stop',
  description: 'Runs until cancelled.',
  inputSchema: z.object({ text: z.string() }),
  execute: async (_args, ctx) => {
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
    aborted = true;
    return 'stopped';
  },
});
const run = createRuntime({ tools: [countWords, waitForStop] }).startRun();

function chatFor(toolName: string) {
  const { transport, requests } = scripted(toolName);
  const chat = new Chat({
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    onToolCall: (call) => void tools.onToolCall(call),
  });
  const tools = chatTools(chat, run);
  return { chat, requests };
}
const part = (chat: Chat, toolName: string) =>
  chat.messages
    .flatMap((message) => message.parts)
    .find((p) => 'toolCallId' in p && p.toolCallId === callIdOf(toolName));
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

const counted = chatFor('count_words');
await counted.chat.sendMessage({ text: 'How many words?' });
await settle();
const answered = part(counted.chat, 'count_words') as { state?: string; output?: unknown } | undefined;
const text = counted.chat.lastMessage?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
console.log(answered?.state, answered?.output, counted.requests(), text);

const stopped = chatFor('wait_for_stop');
await stopped.chat.sendMessage({ text: 'Wait.' });
await stopped.chat.stop();
await settle();
const cancelled = part(stopped.chat, 'wait_for_stop') as { state?: string; errorText?: string } | undefined;
console.log(cancelled?.state, cancelled?.errorText, aborted, stopped.requests());
await run.end();
`;
