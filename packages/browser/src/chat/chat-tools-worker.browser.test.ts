import type { ToolEvent } from '@toolctx/core';
import { chatTools } from '@toolctx/core/ai-sdk';
import { lastAssistantMessageIsCompleteWithToolCalls } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { attachStatus } from '../status/attach-status.js';
import { container, lineTexts } from '../status/test-helpers.js';
import { createIdbArtifactStore } from '../stores/idb-artifact-store.js';
import { connectWorker, type WorkerConnection } from '../worker-door/connect-worker.js';
import {
  actionButton,
  Chat,
  call,
  lastText,
  scriptedTransport,
  type Turn,
  toolPart,
} from './test-helpers.js';

const open: WorkerConnection[] = [];
afterEach(() => {
  for (const connection of open.splice(0)) connection.terminate();
  document.body.replaceChildren();
});

const identity = { tenant: 'acme', principal: 'ana', conversationId: 'chat-w' };

// Each test starts a fresh Worker, which loads its module graph before it answers: on a busy
// 2-core machine that alone took most of vi.waitFor's default second.
const workerAnswers = { timeout: 10_000 };

/** A chat whose client-side tools run in a Worker, through the Web Worker door. */
function setUp(turns: Turn[]) {
  const connection = connectWorker(
    new Worker(new URL('./chat-fixture.worker.ts', import.meta.url), { type: 'module' }),
  );
  open.push(connection);
  const run = connection.startRun({ identity });
  const events: ToolEvent[] = [];
  run.events.subscribe((event) => events.push(event));
  const { transport, requests } = scriptedTransport(turns);
  const chat = new Chat({
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    onToolCall: (call) => void helper.onToolCall(call),
  });
  const helper = chatTools(chat, run);
  return { chat, helper, run, events, requests };
}

describe('chatTools through the Web Worker door', () => {
  it('runs the call in the Worker, shows its progress, and the chat gets the output and sends again', async () => {
    const t = setUp([call('tc_1', 'getCity', { country: 'PT' }), { text: 'You are in Lisbon.' }]);
    const element = container();
    attachStatus(element, t.run, { actions: t.helper });
    await t.chat.sendMessage({ text: 'Where am I?' });
    await vi.waitFor(
      () => expect(lineTexts(element).join()).toContain('looking up a city in PT'),
      workerAnswers,
    );
    new BroadcastChannel('chat-fixture-go').postMessage('go');
    await vi.waitFor(() => expect(lastText(t.chat)).toBe('You are in Lisbon.'), workerAnswers);
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({ state: 'output-available', output: { city: 'Lisbon' } });
    expect(t.requests).toHaveLength(2);
    expect(t.events.find((event) => event.type === 'tool.finished')?.callId).toBe('tc_1');
  });

  it('keeps an artifact the Worker’s tool saved in IndexedDB, where the page reads it', async () => {
    const t = setUp([call('tc_1', 'saveNote', { text: 'buy milk' }), { text: 'Saved.' }]);
    await t.chat.sendMessage({ text: 'Note: buy milk' });
    await vi.waitFor(() => expect(lastText(t.chat)).toBe('Saved.'), workerAnswers);
    const ref = (toolPart(t.chat, 'tc_1') as { output?: unknown }).output as string;
    const store = createIdbArtifactStore({ name: 'chat-worker-artifacts' });
    const saved = await store.get({ tenant: 'acme', principal: 'ana', conversation: 'chat-w' }, ref);
    expect(saved?.data).toBe('buy milk');
  });

  it('waits for approval in the Worker; the widget’s Approve runs it and the chat gets the output', async () => {
    const t = setUp([call('tc_1', 'sendMail', { to: 'bo@example.com' }), { text: 'Sent.' }]);
    const element = container();
    attachStatus(element, t.run, { expanded: true, actions: t.helper });
    await t.chat.sendMessage({ text: 'Mail Bo' });
    const approve = await actionButton(element, 'approve');
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({ state: 'input-available' });
    approve.click();
    await vi.waitFor(() => expect(lastText(t.chat)).toBe('Sent.'), workerAnswers);
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({
      state: 'output-available',
      output: 'sent to bo@example.com',
    });
  });

  it('cancels the Worker’s running tool when the chat stops, and the part ends as output-error', async () => {
    const t = setUp([call('tc_1', 'watch', {}), { text: 'never sent' }]);
    await t.chat.sendMessage({ text: 'Watch' });
    await vi.waitFor(
      () => expect(t.events.some((event) => event.type === 'tool.progress')).toBe(true),
      workerAnswers,
    );
    await t.chat.stop();
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({
      state: 'output-error',
      errorText: 'The call was cancelled by its caller.',
    });
    await vi.waitFor(
      () => expect(t.events.some((event) => event.type === 'tool.failed')).toBe(true),
      workerAnswers,
    );
    expect(await t.run.call({ tool: 'was_aborted', args: {} })).toMatchObject({ ok: true, value: true });
    expect(t.requests).toHaveLength(1);
  });

  it('cancels an approval waiting in the Worker when the chat stops: the call fails as aborted, nothing is decided, and the widget no longer offers Approve', async () => {
    const t = setUp([call('tc_1', 'sendMail', { to: 'bo@example.com' })]);
    const element = container();
    attachStatus(element, t.run, { expanded: true, actions: t.helper });
    await t.chat.sendMessage({ text: 'Mail Bo' });
    await vi.waitFor(
      () => expect(element.querySelector('.toolctx-status__action--approve')).not.toBeNull(),
      workerAnswers,
    );
    await t.chat.stop();
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({ state: 'output-error' });
    await vi.waitFor(
      () => expect(element.querySelector('.toolctx-status__action--approve')).toBeNull(),
      workerAnswers,
    );
    await vi.waitFor(
      () =>
        expect(t.events.find((event) => event.type === 'tool.failed')).toMatchObject({
          callId: 'tc_1',
          data: { error: { kind: 'aborted' } },
        }),
      workerAnswers,
    );
    expect(t.events.some((event) => event.type === 'approval.decided')).toBe(false);
    expect(t.events.some((event) => event.type === 'tool.finished')).toBe(false);
  });

  it('refuses a tool the Worker does not serve, naming it, and runs nothing', async () => {
    const t = setUp([call('tc_1', 'deleteEverything', {}), { text: 'Sorry.' }]);
    await t.chat.sendMessage({ text: 'Go' });
    await vi.waitFor(() => expect(lastText(t.chat)).toBe('Sorry.'), workerAnswers);
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({
      state: 'output-error',
      errorText: expect.stringContaining('There is no tool named "deleteEverything".'),
    });
  });
});
