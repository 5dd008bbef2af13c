import {
  AbstractChat,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  type ChatTransport,
  type UIMessage,
  type UIMessageChunk,
} from 'ai';
import { vi } from 'vitest';

/** The chat's state in memory, kept the way `@ai-sdk/react` keeps it: a new array per change. */
class MemoryChatState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: UIMessage[];
  constructor(messages: UIMessage[] = []) {
    this.messages = messages;
  }
  pushMessage = (message: UIMessage) => {
    this.messages = this.messages.concat(message);
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = [
      ...this.messages.slice(0, index),
      this.snapshot(message),
      ...this.messages.slice(index + 1),
    ];
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** The framework-agnostic chat of `ai`, as `@ai-sdk/react` subclasses it, without a framework. */
export class Chat extends AbstractChat<UIMessage> {
  constructor({ messages, ...init }: ChatInit<UIMessage>) {
    super({ ...init, state: new MemoryChatState(messages) });
  }
}

/** A client-side tool call the scripted model makes. */
export interface ScriptedCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** One response of the scripted model: tool calls for the page to run, or text. */
export type Turn = { calls: ScriptedCall[] } | { text: string };

/**
 * A transport that answers each request with the next turn, as a stream of UI message chunks,
 * and keeps the messages each request sent.
 */
export function scriptedTransport(turns: Turn[]) {
  const requests: UIMessage[][] = [];
  const transport: ChatTransport<UIMessage> = {
    async sendMessages({ messages }) {
      requests.push(structuredClone(messages));
      const turn = turns[requests.length - 1] ?? { text: 'no more turns' };
      const body: UIMessageChunk[] =
        'calls' in turn
          ? turn.calls.map((call) => ({ type: 'tool-input-available', ...call }))
          : [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: turn.text },
              { type: 'text-end', id: 't' },
            ];
      const chunks: UIMessageChunk[] = [
        { type: 'start' },
        { type: 'start-step' },
        ...body,
        { type: 'finish-step' },
        { type: 'finish' },
      ];
      return new ReadableStream<UIMessageChunk>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      });
    },
    reconnectToStream: async () => null,
  };
  return { transport, requests };
}

/** The tool parts of the chat's messages, by toolCallId. */
export function toolPart(chat: Chat, toolCallId: string) {
  for (const message of chat.messages) {
    for (const part of message.parts) {
      if ('toolCallId' in part && part.toolCallId === toolCallId) return part;
    }
  }
  return undefined;
}

/** The text of the chat's last message. */
export function lastText(chat: Chat): string {
  const parts = chat.lastMessage?.parts ?? [];
  return parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** A promise and the function that resolves it, for a tool a test lets finish. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** A turn in which the model calls one client-side tool. */
export const call = (toolCallId: string, toolName: string, input: unknown): Turn => ({
  calls: [{ toolCallId, toolName, input }],
});

/**
 * Waits until the widget in `element` shows a line action (`approve`, `deny`, `cancel`); returns
 * its button once it can be pressed. Up to 10 s: behind a Worker door the action waits for a fresh
 * Worker to start.
 */
export function actionButton(element: HTMLElement, action: string): Promise<HTMLButtonElement> {
  return vi.waitFor(
    () => {
      const button = element.querySelector<HTMLButtonElement>(`.toolctx-status__action--${action}`);
      if (!button) throw new Error(`no ${action} button yet`);
      // As a person would: Approve is held (presses ignored) until what it allows is shown.
      if (button.hasAttribute('aria-disabled')) throw new Error(`the ${action} button is held`);
      return button;
    },
    { timeout: 10_000 },
  );
}
