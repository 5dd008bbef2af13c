/// <reference types="@vitest/browser-playwright" />
import { createRuntime, defineTool, type OpenApproval, type ToolEvent } from '@toolctx/core';
import { createMemoryApprovalPort } from '@toolctx/core/memory';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { cdp, page, userEvent } from 'vitest/browser';
import { z } from 'zod';
import { connectWorker } from '../worker-door/connect-worker.js';
import { attachStatus } from './attach-status.js';
import { describeAsk } from './line-actions.js';
import { defineStatusElement, type StatusElement } from './status-element.js';
import { container, fakeSource, frames } from './test-helpers.js';

afterEach(async () => {
  document.body.replaceChildren();
  await cdp().send('Emulation.setEmulatedMedia', { features: [] });
});

/** Waits until `check` holds, a frame at a time. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await frames(1);
  expect(check()).toBe(true);
}

const buttons = (root: ParentNode) =>
  [...root.querySelectorAll<HTMLButtonElement>('button.toolctx-status__action')].map(
    (button) => button.getAttribute('aria-label') ?? '',
  );

const lineOf = (root: ParentNode, callId: string) =>
  [...root.querySelectorAll<HTMLElement>('.toolctx-status__line')].find((row) => row.dataset.call === callId);

/** A slow tool that honours its signal, and one that needs a person's approval. */
function runtime() {
  const countWords = defineTool({
    name: 'count_words',
    description: 'Counts words slowly.',
    inputSchema: z.object({ text: z.string() }),
    async execute(_args, ctx) {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, 20_000);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(ctx.signal.reason);
        });
      });
      return { words: 2 };
    },
  });
  const publish = defineTool({
    name: 'publish_note',
    title: 'Publish a note',
    description: 'Publishes a note.',
    inputSchema: z.object({ text: z.string() }),
    needsApproval: true,
    execute: async ({ text }) => ({ published: text }),
  });
  return createRuntime({ tools: [countWords, publish], approval: createMemoryApprovalPort() });
}

/** Tags each row with its call id, so a test can find the line of a call. */
function tagRows(element: HTMLElement, events: { subscribe(l: (e: ToolEvent) => void): () => void }) {
  const order: string[] = [];
  events.subscribe((event) => {
    if (event.callId && !order.includes(event.callId)) order.push(event.callId);
  });
  return async () => {
    await frames();
    const rows = element.querySelectorAll<HTMLElement>('.toolctx-status__line');
    rows.forEach((row, i) => {
      row.dataset.call ??= order[i];
    });
  };
}

describe('actions on the line they belong to', () => {
  it("gives two running calls a Cancel each from the local run's own cancel, and cancelling one leaves the other running", async () => {
    const run = runtime().startRun();
    const element = container();
    attachStatus(element, run);
    const tag = tagRows(element, run.events);
    const calls = ['c1', 'c2'].map((toolCallId) =>
      run.call({ tool: 'count_words', args: { text: toolCallId }, toolCallId }),
    );
    await until(() => buttons(element).length === 2);
    await tag();
    expect(buttons(element)).toEqual(['Cancel count_words', 'Cancel count_words']);
    const second = lineOf(element, 'c2')!.querySelector('button')!;
    second.focus();
    await userEvent.keyboard('{Enter}');
    const cancelled = await calls[1]!;
    expect(cancelled.ok).toBe(false);
    await until(() => buttons(element).length === 1);
    expect(lineOf(element, 'c1')!.dataset.state).toBe('running');
    expect(lineOf(element, 'c1')!.querySelector('button')?.textContent).toBe('Cancel');
    expect(lineOf(element, 'c2')!.dataset.state).toBe('cancelled');
    // The line moved to the folded list: focus goes to the toggle that leads to it, not to <body>.
    expect(document.activeElement).not.toBe(document.body);
    expect(document.activeElement?.className).toBe('toolctx-status__toggle');
    await run.abort();
  });

  it('gives two waiting approvals Approve and Deny each; settling one leaves the other waiting', async () => {
    const run = runtime().startRun();
    const element = container();
    const asked = new Map([
      ['a1', { text: 'Ship the quarterly report to everyone on the list today' }],
      ['a2', { text: 'Hello' }],
    ]);
    attachStatus(element, run, {
      expanded: true,
      actions: { details: ({ callId }) => ({ title: 'Publish a note', args: asked.get(callId) }) },
    });
    const tag = tagRows(element, run.events);
    const pending = await Promise.all(
      [...asked].map(([toolCallId, args]) => run.call({ tool: 'publish_note', args, toolCallId })),
    );
    expect(pending.map((result) => !result.ok && result.error.kind)).toEqual([
      'approval-pending',
      'approval-pending',
    ]);
    await tag();
    await until(() => buttons(element).length === 4);
    expect(buttons(element)).toEqual([
      'Approve publish_note',
      'Deny publish_note',
      'Approve publish_note',
      'Deny publish_note',
    ]);
    const asks = [...element.querySelectorAll('.toolctx-status__ask')].map((ask) => ask.textContent);
    expect(asks).toEqual(['Publish a note: text “Ship the quarterly repo…”', 'Publish a note: text “Hello”']);
    const first = lineOf(element, 'a1')!;
    const approve = first.querySelector<HTMLButtonElement>('.toolctx-status__action--approve')!;
    approve.focus();
    await userEvent.keyboard('{Enter}');
    await until(() => lineOf(element, 'a1')!.dataset.state === 'done');
    await frames();
    expect(lineOf(element, 'a2')!.dataset.state).toBe('pending');
    expect(buttons(lineOf(element, 'a2')!)).toEqual(['Approve publish_note', 'Deny publish_note']);
    expect(buttons(lineOf(element, 'a1')!)).toEqual([]);
    // The finished list is unfolded: focus stays on the line the control belonged to.
    expect(document.activeElement).toBe(lineOf(element, 'a1'));
    lineOf(element, 'a2')!.querySelector<HTMLButtonElement>('.toolctx-status__action--deny')!.click();
    await until(() => lineOf(element, 'a2')!.dataset.state === 'failed');
    expect(buttons(element)).toEqual([]);
    await run.end();
  });

  it('shows what a waiting call would run with from the local run’s pendingApprovals when the page gives no details, and the page’s details first', async () => {
    const run = runtime().startRun();
    const element = container();
    attachStatus(element, run, { expanded: true });
    const tag = tagRows(element, run.events);
    // The widget's writes, in batches by frame: the line and its arguments are one.
    const batches = new Map<number, number>();
    const observer = new MutationObserver(() => {
      const frame = Number(document.timeline.currentTime);
      batches.set(frame, (batches.get(frame) ?? 0) + 1);
    });
    observer.observe(element, { subtree: true, childList: true, characterData: true, attributes: true });
    await run.call({ tool: 'publish_note', args: { text: 'Ship it <b>now</b>' }, toolCallId: 'p1' });
    await until(() => buttons(element).length === 2);
    await frames(2);
    observer.disconnect();
    expect(Math.max(...batches.values())).toBe(1);
    await tag();
    const ask = lineOf(element, 'p1')!.querySelector('.toolctx-status__ask')!;
    // The arguments the page does not know, from a run that has them at once: shown with the line,
    // in the same write, so Approve is never held; as text, never markup.
    expect(ask.textContent).toBe('publish_note: text “Ship it <b>now</b>”');
    expect(ask.children).toHaveLength(0);
    const approve = element.querySelector<HTMLButtonElement>('.toolctx-status__action--approve')!;
    expect(approve.hasAttribute('aria-disabled')).toBe(false);
    // A page that gives the details is not second-guessed.
    const other = container();
    attachStatus(other, run, {
      expanded: true,
      actions: { details: () => ({ title: 'Publish', args: { text: 'mine' } }) },
    });
    await until(() => other.querySelector('.toolctx-status__ask')?.textContent === 'Publish: text “mine”');
    await frames(3);
    expect(other.querySelector('.toolctx-status__ask')?.textContent).toBe('Publish: text “mine”');
    await run.end();
  });

  it('takes Approve and Deny from a Worker run’s own resume, and settles the call in the Worker', async () => {
    const worker = new Worker(new URL('../worker-door/fixture.worker.ts', import.meta.url), {
      type: 'module',
    });
    const connection = connectWorker(worker);
    try {
      const run = connection.startRun();
      const element = container();
      attachStatus(element, run, { expanded: true });
      const decided = new Promise<ToolEvent>((resolve) =>
        run.events.subscribe((event) => event.type === 'approval.decided' && resolve(event)),
      );
      const pending = await run.call({ tool: 'pay', args: { amount: 40 } });
      expect(pending).toMatchObject({ ok: false, error: { kind: 'approval-pending' } });
      await until(() => buttons(element).length === 2);
      expect(buttons(element)).toEqual(['Approve pay', 'Deny pay']);
      // The arguments, which no event carries, from the Worker run's pendingApprovals.
      const ask = element.querySelector('.toolctx-status__ask')!;
      await until(() => ask.textContent === 'pay: amount 40');
      element.querySelector<HTMLButtonElement>('.toolctx-status__action--approve')!.click();
      expect((await decided).data).toMatchObject({ tool: 'pay', approved: true });
      await until(
        () => element.querySelector<HTMLElement>('.toolctx-status__line')!.dataset.state === 'done',
      );
      expect(buttons(element)).toEqual([]);
    } finally {
      connection.terminate();
    }
  });

  it('holds Approve until the arguments from the source’s pendingApprovals are shown, and frees it when the source cannot say', async () => {
    const decided: string[] = [];
    let answer!: (list: OpenApproval[]) => void;
    let fail!: (error: Error) => void;
    let asked = 0;
    const source = {
      ...fakeSource(),
      resume: (approvalId: string) => void decided.push(approvalId),
      pendingApprovals: () => {
        asked++;
        return new Promise<OpenApproval[]>((resolve, reject) => {
          answer = resolve;
          fail = reject;
        });
      },
    };
    const element = container();
    attachStatus(element, source, { expanded: true });
    source.emit('tool.started', 'p', { tool: 'pay' });
    source.emit('approval.requested', 'p', { tool: 'pay', approvalId: 'apr_1' });
    source.emit('tool.pending', 'p', { reason: 'approval', id: 'apr_1' });
    await until(() => buttons(element).length === 2);
    await until(() => asked === 1);
    const approve = element.querySelector<HTMLButtonElement>('.toolctx-status__action--approve')!;
    expect(approve.getAttribute('aria-disabled')).toBe('true');
    approve.click();
    await frames();
    expect(decided).toEqual([]);
    // What comes later is written in a frame of the widget's, in its one batch.
    const batches = new Map<number, number>();
    const observer = new MutationObserver(() => {
      const frame = Number(document.timeline.currentTime);
      batches.set(frame, (batches.get(frame) ?? 0) + 1);
    });
    observer.observe(element, { subtree: true, childList: true, characterData: true, attributes: true });
    // The run answers in a frame in which the widget writes too (a call that starts): one batch.
    requestAnimationFrame(() =>
      answer([{ approvalId: 'apr_1', toolCallId: 'p', tool: 'pay', args: { amount: 40 }, requestedAt: 0 }]),
    );
    source.emit('tool.started', 'r', { tool: 'read' });
    const ask = element.querySelector('.toolctx-status__ask')!;
    await until(() => ask.textContent === 'pay: amount 40');
    expect(approve.hasAttribute('aria-disabled')).toBe(false);
    await until(() => element.querySelectorAll('.toolctx-status__line').length === 2);
    observer.disconnect();
    expect(Math.max(...batches.values())).toBe(1);
    approve.click();
    await until(() => decided.length > 0);
    expect(decided).toEqual(['apr_1']);

    // A source that cannot say frees Approve, the tool's name alone beside it.
    document.body.replaceChildren();
    const offline = { ...source, ...fakeSource() };
    const other = container();
    attachStatus(other, offline, { expanded: true });
    offline.emit('tool.started', 'q', { tool: 'pay' });
    offline.emit('tool.pending', 'q', { reason: 'approval', id: 'apr_2' });
    await until(() => asked === 2);
    const held = other.querySelector<HTMLButtonElement>('.toolctx-status__action--approve')!;
    expect(held.getAttribute('aria-disabled')).toBe('true');
    fail(new Error('offline'));
    await until(() => !held.hasAttribute('aria-disabled'));
    expect(other.querySelector('.toolctx-status__ask')?.textContent).toBe('pay');
  });

  it('uses a source’s own cancel(callId), and a second press while the first is on its way does nothing', async () => {
    const source = {
      ...fakeSource(),
      cancelled: [] as string[],
      cancel(id: string) {
        this.cancelled.push(id);
      },
    };
    const element = container();
    attachStatus(element, source);
    source.emit('tool.started', 'x', { tool: 'fetch' });
    await frames();
    const cancel = element.querySelector<HTMLButtonElement>('button.toolctx-status__action')!;
    cancel.click();
    cancel.click();
    await frames();
    expect(source.cancelled).toEqual(['x']);
    expect(cancel.getAttribute('aria-disabled')).toBe('true');
  });

  it('shows no controls for a plain async iterable, nor with actions: false', async () => {
    const events: ToolEvent[] = [
      { type: 'tool.started', seq: 1, callId: 'a', ts: 0, data: { tool: 'fetch' } },
      {
        type: 'tool.pending',
        seq: 2,
        callId: 'b',
        ts: 0,
        data: { tool: 'publish', reason: 'approval', id: 'ap_1' },
      },
    ];
    const iterable = {
      async *[Symbol.asyncIterator]() {
        yield* events;
        await new Promise(() => {});
      },
    };
    const element = container();
    attachStatus(element, iterable, { actions: { details: () => ({ title: 'x' }) } });
    await until(() => element.querySelectorAll('.toolctx-status__line').length === 2);
    expect(element.querySelectorAll('button.toolctx-status__action')).toHaveLength(0);
    const run = runtime().startRun();
    const other = container();
    attachStatus(other, run, { actions: false });
    await run.call({ tool: 'publish_note', args: { text: 'hi' } });
    await frames();
    expect(other.querySelectorAll('.toolctx-status__line')).toHaveLength(1);
    expect(other.querySelectorAll('button.toolctx-status__action')).toHaveLength(0);
  });

  it('has targets of at least 24 × 24 px and no axe violations, in <toolctx-status> too', async () => {
    await page.viewport(390, 700);
    defineStatusElement();
    const status = document.createElement('toolctx-status') as StatusElement;
    status.style.cssText = 'display:block;font:12px system-ui,sans-serif;padding:1rem';
    document.body.append(status);
    const source = { ...fakeSource(), cancel() {}, resume() {} };
    status.options = { actions: { details: () => ({ title: 'Publish a note', args: { text: 'Hello' } }) } };
    status.source = source;
    source.emit('tool.started', 'r', { tool: 'count_words' });
    source.emit('tool.started', 'p', { tool: 'publish_note' });
    source.emit('tool.pending', 'p', { tool: 'publish_note', reason: 'approval', id: 'ap_1' });
    await frames();
    const shadow = status.shadowRoot!;
    const controls = [...shadow.querySelectorAll('button.toolctx-status__action')];
    expect(controls.map((button) => button.getAttribute('aria-label'))).toEqual([
      'Cancel count_words',
      'Approve publish_note',
      'Deny publish_note',
    ]);
    for (const button of controls) {
      const box = button.getBoundingClientRect();
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(24);
    }
    const result = await axe.run(status, { rules: { 'target-size': { enabled: true } } });
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
    expect(result.passes.map((p) => p.id)).toContain('target-size');
    await page.elementLocator(status).screenshot({ path: '__screenshots__/status/status-actions.png' });
    await cdp().send('Emulation.setEmulatedMedia', {
      features: [{ name: 'prefers-color-scheme', value: 'dark' }],
    });
    status.style.background = '#1f1f1f';
    const dark = await axe.run(status, { rules: { 'target-size': { enabled: true } } });
    expect(dark.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
    expect(dark.passes.map((p) => p.id)).toContain('color-contrast');
    await page.elementLocator(status).screenshot({ path: '__screenshots__/status/status-actions-dark.png' });
  });
});

describe('describeAsk', () => {
  it('words a few arguments, cut short, and never shows JSON', () => {
    const args = { text: 'a b', limit: 3, tags: ['x', 'y'], nested: { deep: 1 }, extra: true };
    expect(describeAsk('count_words', { args })).toBe(
      'count_words: text “a b”, limit 3, tags 2 items, +2 more',
    );
    expect(describeAsk('count_words', { title: 'Count words', args: { nested: { a: 1 } } })).toBe(
      'Count words: nested …',
    );
    expect(describeAsk('count_words', undefined)).toBe('count_words');
  });
});
