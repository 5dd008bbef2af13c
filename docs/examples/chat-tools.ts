// chat.ts — an AI SDK UI chat whose client-side tools run in a Web Worker through a toolctx run:
// the chat's stop cancels them, their progress and approvals show in the status line, and the
// chat gets each output (or the error, in words for the model) and sends again.
import { attachStatus } from '@toolctx/browser/status';
import { connectWorker } from '@toolctx/browser/worker';
import { chatTools } from '@toolctx/core/ai-sdk';
import {
  AbstractChat,
  type ChatInit,
  type ChatState,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithToolCalls,
  type UIMessage,
} from 'ai';

// With React, Vue or Svelte, take their `Chat` (`@ai-sdk/react`, …); this one keeps its state in memory.
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

const worker = connectWorker(new Worker(new URL('./tools.worker.ts', import.meta.url), { type: 'module' }));
const run = worker.startRun({ identity: { tenant: 'me', principal: 'me', conversationId: 'chat-1' } });

const chat = new Chat({
  transport: new DefaultChatTransport({ api: '/api/chat' }), // its route declares the tools without execute
  sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
  onToolCall: (call) => void tools.onToolCall(call), // answered later with chat.addToolOutput
});
const tools = chatTools(chat, run); // also makes chat.stop() cancel the calls in flight

// Cancel on a running call, Approve and Deny on one that waits: answered to the chat too.
attachStatus(document.querySelector('#status')!, run, { actions: tools });
document.querySelector('#stop')?.addEventListener('click', () => chat.stop());

await chat.sendMessage({ text: 'Summarise these two pages for me.' });
