import { createRuntime, type ToolEvent } from '@toolctx/core';
import { chatTools } from '@toolctx/core/ai-sdk';
import { createMemoryApprovalPort } from '@toolctx/core/memory';
import { lastAssistantMessageIsCompleteWithToolCalls } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { attachStatus } from '../status/attach-status.js';
import { container, lineTexts } from '../status/test-helpers.js';
import { createIdbArtifactStore } from '../stores/idb-artifact-store.js';
import {
  actionButton,
  Chat,
  call,
  gate,
  lastText,
  scriptedTransport,
  type Turn,
  toolPart,
} from './test-helpers.js';
import { chatFixtureTools } from './tools.fixture.js';

afterEach(() => document.body.replaceChildren());

const identity = { tenant: 'acme', principal: 'ana', conversationId: 'chat-1' };

/** The page's tools: one that reports progress until let go, one that waits for its signal, and more. */
function setUp(turns: Turn[]) {
  const step = gate();
  const seen = { ran: 0, aborted: false };
  const artifacts = createIdbArtifactStore({ name: `chat-tools-${crypto.randomUUID()}` });
  const tools = chatFixtureTools(seen, () => step.opened);
  const runtime = createRuntime({ tools, artifacts, approval: createMemoryApprovalPort() });
  const run = runtime.startRun({ identity });
  const events: ToolEvent[] = [];
  run.events.subscribe((event) => events.push(event));
  const { transport, requests } = scriptedTransport(turns);
  const chat = new Chat({
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    onToolCall: (call) => void helper.onToolCall(call),
  });
  const helper = chatTools(chat, run);
  return { chat, helper, run, events, requests, step, seen, artifacts };
}

describe('chatTools with the AI SDK Chat', () => {
  it('answers the chat with the output, names the call by its toolCallId, and the chat sends again', async () => {
    const t = setUp([call('tc_1', 'getCity', { country: 'PT' }), { text: 'You are in Lisbon.' }]);
    await t.chat.sendMessage({ text: 'Where am I?' });
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({ state: 'input-available' });
    t.step.open();
    await vi.waitFor(() => expect(lastText(t.chat)).toBe('You are in Lisbon.'));
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({ state: 'output-available', output: { city: 'Lisbon' } });
    expect(t.requests).toHaveLength(2);
    const sent = t.requests[1]!.flatMap((message) => message.parts);
    expect(sent).toContainEqual(expect.objectContaining({ toolCallId: 'tc_1', state: 'output-available' }));
    const finished = t.events.find((event) => event.type === 'tool.finished');
    expect(finished?.callId).toBe('tc_1');
  });

  it('shows the call’s progress in attachStatus on the same run', async () => {
    const t = setUp([call('tc_1', 'getCity', { country: 'FR' }), { text: 'Paris.' }]);
    const element = container();
    attachStatus(element, t.run, { actions: t.helper });
    await t.chat.sendMessage({ text: 'Where am I?' });
    await vi.waitFor(() => expect(lineTexts(element).join()).toContain('looking up a city in FR'));
    expect(element.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow')).toBe('1');
    t.step.open();
    await vi.waitFor(() => expect(lastText(t.chat)).toBe('Paris.'));
  });

  it('keeps an artifact the tool saved in IndexedDB, in the run’s scope', async () => {
    const t = setUp([call('tc_1', 'saveNote', { text: 'buy milk' }), { text: 'Saved.' }]);
    await t.chat.sendMessage({ text: 'Note: buy milk' });
    await vi.waitFor(() => expect(lastText(t.chat)).toBe('Saved.'));
    const part = toolPart(t.chat, 'tc_1') as { output?: unknown };
    expect(part.output).toMatch(/^art_/);
    const scope = { tenant: 'acme', principal: 'ana', conversation: 'chat-1' };
    const saved = await t.artifacts.get(scope, part.output as string);
    expect(saved?.data).toBe('buy milk');
    expect(saved?.meta.origin).toMatchObject({ toolCallId: 'tc_1' });
  });

  it('waits for approval; the widget’s Approve runs the tool and the chat gets its output', async () => {
    const t = setUp([call('tc_1', 'sendMail', { to: 'bo@example.com' }), { text: 'Sent.' }]);
    const element = container();
    attachStatus(element, t.run, { expanded: true, actions: t.helper });
    await t.chat.sendMessage({ text: 'Mail Bo' });
    const approve = await actionButton(element, 'approve');
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({ state: 'input-available' });
    expect(t.chat.status).toBe('ready');
    approve.click();
    await vi.waitFor(() => expect(lastText(t.chat)).toBe('Sent.'));
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({
      state: 'output-available',
      output: 'sent to bo@example.com',
    });
  });

  it('answers a denied call with output-error, in words for the model', async () => {
    const t = setUp([call('tc_1', 'sendMail', { to: 'bo@example.com' }), { text: 'Not sent.' }]);
    await t.chat.sendMessage({ text: 'Mail Bo' });
    const pending = await vi.waitFor(() => {
      const event = t.events.find((seen) => seen.type === 'tool.pending');
      expect(event).toBeDefined();
      return event!;
    });
    expect(pending.callId).toBe('tc_1');
    const approvalId = (pending.data as { id: string }).id;
    const denied = await t.helper.resume(approvalId, { approved: false, reason: 'not today' });
    expect(denied).toMatchObject({ ok: false, error: { kind: 'approval-denied' } });
    await vi.waitFor(() => expect(lastText(t.chat)).toBe('Not sent.'));
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({
      state: 'output-error',
      errorText: expect.stringContaining('`sendMail` was not approved: not today'),
    });
    // Decided once: a second answer goes to the run, which refuses it, and the chat keeps the first.
    const again = await t.helper.resume(approvalId, { approved: true });
    expect(again).toMatchObject({ ok: false, error: { kind: 'approval-invalid' } });
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({ state: 'output-error' });
  });

  it('cancels a running tool when the chat stops: its signal fires, the part ends as output-error, no new request', async () => {
    const t = setUp([call('tc_1', 'watch', {}), { text: 'never sent' }]);
    await t.chat.sendMessage({ text: 'Watch' });
    await vi.waitFor(() => expect(t.events.some((event) => event.type === 'tool.progress')).toBe(true));
    await t.chat.stop();
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({
      state: 'output-error',
      errorText: 'The call was cancelled by its caller.',
    });
    await vi.waitFor(() => expect(t.seen.aborted).toBe(true));
    await vi.waitFor(() => expect(t.events.some((event) => event.type === 'tool.failed')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.requests).toHaveLength(1);
    expect(t.chat.status).toBe('ready');
  });

  it('cancels a call waiting for approval when the chat stops, and the widget no longer offers Approve', async () => {
    const t = setUp([call('tc_1', 'sendMail', { to: 'bo@example.com' })]);
    const element = container();
    attachStatus(element, t.run, { expanded: true, actions: t.helper });
    await t.chat.sendMessage({ text: 'Mail Bo' });
    await vi.waitFor(() => expect(element.querySelector('.toolctx-status__action--approve')).not.toBeNull());
    await t.helper.stop();
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({ state: 'output-error' });
    const failed = t.events.find((event) => event.type === 'tool.failed');
    expect(failed).toMatchObject({ callId: 'tc_1', data: { error: { kind: 'aborted' } } });
    await vi.waitFor(() => expect(element.querySelector('.toolctx-status__action--approve')).toBeNull());
  });

  it('cancels one call from the widget’s Cancel, and the chat goes on with the error', async () => {
    const t = setUp([call('tc_1', 'watch', {}), { text: 'Stopped watching.' }]);
    const element = container();
    attachStatus(element, t.run, { actions: t.helper });
    await t.chat.sendMessage({ text: 'Watch' });
    const cancel = await actionButton(element, 'cancel');
    cancel.click();
    await vi.waitFor(() => expect(lastText(t.chat)).toBe('Stopped watching.'));
    expect(t.seen.aborted).toBe(true);
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({ state: 'output-error' });
  });

  it('answers a failing tool with its ErrorInfo message as errorText', async () => {
    const t = setUp([call('tc_1', 'failing', {}), { text: 'It failed.' }]);
    await t.chat.sendMessage({ text: 'Try' });
    await vi.waitFor(() => expect(lastText(t.chat)).toBe('It failed.'));
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({
      state: 'output-error',
      errorText: 'The mail server refused the address; ask for another.',
    });
  });

  it('refuses a tool the run does not offer, and input that fails the schema, naming what was wrong and running nothing', async () => {
    const t = setUp([
      {
        calls: [
          { toolCallId: 'tc_1', toolName: 'deleteEverything', input: {} },
          { toolCallId: 'tc_2', toolName: 'getCity', input: { country: 42, extra: '<img src=x>' } },
        ],
      },
      { text: 'Sorry.' },
    ]);
    await t.chat.sendMessage({ text: 'Go' });
    await vi.waitFor(() => expect(lastText(t.chat)).toBe('Sorry.'));
    expect(toolPart(t.chat, 'tc_1')).toMatchObject({
      state: 'output-error',
      errorText: expect.stringContaining('There is no tool named "deleteEverything". Available: getCity'),
    });
    expect(toolPart(t.chat, 'tc_2')).toMatchObject({
      state: 'output-error',
      errorText: expect.stringMatching(/^Invalid arguments for "getCity": country: /),
    });
    expect(t.seen.ran).toBe(0);
  });

  it('leaves calls of tools outside `names` to the app', async () => {
    const t = setUp([]);
    const only = chatTools({ addToolOutput: () => {} }, t.run, { names: ['getCity'] });
    expect(only.onToolCall({ toolCall: { toolCallId: 'x', toolName: 'watch', input: {} } })).toBe(false);
    expect(only.cancel('x')).toBe(false);
    expect(t.events.some((event) => event.type === 'tool.started')).toBe(false);
  });
});
