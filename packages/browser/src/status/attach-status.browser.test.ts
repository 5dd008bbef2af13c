/// <reference types="@vitest/browser-playwright" />
import { createRuntime, defineTool, ToolctxError } from '@toolctx/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cdp } from 'vitest/browser';
import { z } from 'zod';
import { attachStatus } from './attach-status.js';
import {
  barValues,
  container,
  fakeSource,
  frames,
  lineTexts,
  manualClock,
  textSettled,
} from './test-helpers.js';

afterEach(() => {
  document.body.replaceChildren();
});

describe('attachStatus', () => {
  it('shows a message verbatim and trimmed; the lines are not live, a hidden region speaks for them', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source);
    source.emit('tool.started', 'c1', { tool: 'fetch' });
    await frames();
    expect(lineTexts(element)).toEqual(['fetch started…']);
    source.emit('tool.progress', 'c1', { tool: 'fetch', payload: { message: '  Page 3 of 9  ' }, n: 1 });
    await textSettled();
    expect(lineTexts(element)).toEqual(['Page 3 of 9']);
    const regions = element.querySelectorAll('[aria-live]');
    expect(regions).toHaveLength(1);
    expect(regions[0]?.getAttribute('aria-live')).toBe('polite');
    expect(regions[0]?.contains(element.querySelector('.toolctx-status__text'))).toBe(false);
  });

  it('cuts a long message by grapheme, never splitting an emoji', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source, { maxMessageLength: 10 });
    source.emit('tool.progress', 'c1', {
      tool: 't',
      payload: { message: `${'👨‍👩‍👧'.repeat(9)}👍🏽👍🏽👍🏽` },
      n: 1,
    });
    await frames();
    expect(lineTexts(element)).toEqual([`${'👨‍👩‍👧'.repeat(9)}👍🏽… (+2 more)`]);
  });

  it('shows the generic line for a report without a message', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source);
    source.emit('tool.progress', 'c1', { tool: 'crawl', payload: { pages: 2 }, n: 1 });
    source.emit('tool.progress', 'c1', { tool: 'crawl', payload: 7, n: 2 });
    await frames();
    expect(lineTexts(element)).toEqual(['crawl reported progress (2 so far)…']);
  });

  it('takes templates overridden per key and per tool', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source, {
      templates: { 'tool.progress': '» {message}', 'tool.search.progress': 'Searching {message}' },
    });
    source.emit('tool.progress', 'a', { tool: 'search', payload: { message: 'cats' }, n: 1 });
    source.emit('tool.progress', 'b', { tool: 'read', payload: { message: 'page 1' }, n: 1 });
    await frames();
    expect(lineTexts(element)).toEqual(['Searching cats', '» page 1']);
  });

  it('draws a progress bar from done and total', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source);
    source.emit('tool.progress', 'a', { tool: 't', payload: { message: 'no numbers' }, n: 1 });
    await frames();
    expect(barValues(element)).toEqual([]);
    source.emit('tool.progress', 'a', { tool: 't', payload: { done: 3, total: 10 }, n: 2 });
    await textSettled();
    expect(barValues(element)).toEqual([[3, 10]]);
    const fill = element.querySelector<HTMLElement>('.toolctx-status__fill')!;
    expect(fill.style.transform).toBe('scaleX(0.3)');
    source.emit('tool.progress', 'a', { tool: 't', payload: { done: 7, total: 10 }, n: 3 });
    await textSettled();
    expect(barValues(element)).toEqual([[7, 10]]);
  });

  it("formats a running line's clock once a second, not at each write of its text", async () => {
    const clock = manualClock(1000);
    const source = fakeSource(clock.now);
    const element = container();
    let formatted = 0;
    const elapsed = ({ elapsed }: { elapsed?: string }) => {
      formatted++;
      return `${elapsed}`;
    };
    attachStatus(element, source, { now: clock.now, locale: 'en', templates: { 'call.elapsed': elapsed } });
    source.emit('tool.started', 'a', { tool: 't' });
    await frames();
    const time = () => element.querySelector('.toolctx-status__time')!.textContent;
    expect(time()).toBe('0 s');
    const before = formatted;
    for (let n = 1; n <= 5; n++) {
      clock.set(1000 + n * 250);
      source.emit('tool.progress', 'a', { tool: 't', payload: `r${n}`, n });
      await textSettled();
    }
    expect(lineTexts(element)).toEqual(['r5']);
    // Five writes of the text over 1.25 s of its clock: the elapsed time was formatted again once.
    expect(formatted - before).toBe(1);
    expect(time()).toBe('1 s');
    source.emit('tool.finished', 'a', { tool: 't', durationMs: 1234 });
    await frames();
    expect(time()).toBe('1.2 s');
  });

  it('writes a running line at most every 100 ms, the latest last; a finish in the next frame', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source);
    source.emit('tool.started', 'a', { tool: 't' });
    await frames();
    const writes: number[] = [];
    new MutationObserver(() => writes.push(performance.now())).observe(
      element.querySelector('.toolctx-status__text')!,
      {
        characterData: true,
        subtree: true,
      },
    );
    let n = 0;
    const started = performance.now();
    while (performance.now() - started < 500) {
      source.emit('tool.progress', 'a', { tool: 't', payload: `r${++n}`, n });
      await frames(1);
    }
    await textSettled();
    expect(lineTexts(element)).toEqual([`r${n}`]);
    // Each frame had news, yet the text changed at most 10 times a second (one frame of slack).
    expect(writes.length).toBeGreaterThanOrEqual(3);
    expect(writes.length).toBeLessThanOrEqual(7);
    for (let i = 1; i < writes.length; i++) expect(writes[i]! - writes[i - 1]!).toBeGreaterThan(90);
    source.emit('tool.progress', 'a', { tool: 't', payload: 'last report', n: ++n });
    source.emit('tool.finished', 'a', { tool: 't', durationMs: 5 });
    await frames(1);
    expect(lineTexts(element)).toEqual(['t done']);
  });

  it('asks for no frame while the line it holds back is not yet due, however fast reports come', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source);
    source.emit('tool.started', 'a', { tool: 't' });
    await frames();
    const asked = vi.spyOn(window, 'requestAnimationFrame');
    let n = 0;
    let calls = 0;
    const started = performance.now();
    try {
      // A report every few milliseconds for about half a second, and no frame asked for by the test.
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          source.emit('tool.progress', 'a', { tool: 't', payload: `r${++n}`, n });
          if (performance.now() - started < 500) return;
          clearInterval(timer);
          resolve();
        }, 4);
      });
    } finally {
      calls = asked.mock.calls.length;
      asked.mockRestore();
    }
    const elapsed = performance.now() - started;
    // A write every 100 ms, each asked for once or twice (a timer wakes it shortly before it is
    // due; a slow machine may take one frame more): not a frame callback in each of the six
    // frames of every 100 ms only to find the line still held.
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(calls).toBeLessThanOrEqual(Math.ceil(elapsed / 100) * 3 + 2);
    await textSettled();
    expect(lineTexts(element)).toEqual([`r${n}`]);
  });

  it('keeps each of two busy lines written at different times within 100 ms of its reports', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source);
    source.emit('tool.started', 'a', { tool: 't' });
    source.emit('tool.progress', 'a', { tool: 't', payload: 'a0', n: 0 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    source.emit('tool.started', 'b', { tool: 't' });
    source.emit('tool.progress', 'b', { tool: 't', payload: 'b0', n: 0 });
    await frames();
    const [textA, textB] = element.querySelectorAll('.toolctx-status__text');
    const writes = new Map<Node, number[]>([
      [textA!, []],
      [textB!, []],
    ]);
    const observer = new MutationObserver((records) => {
      for (const record of records) writes.get(record.target.parentNode!)?.push(performance.now());
    });
    for (const text of [textA!, textB!]) observer.observe(text, { characterData: true, subtree: true });
    let n = 0;
    const started = performance.now();
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        n++;
        source.emit('tool.progress', 'a', { tool: 't', payload: `a${n}`, n });
        source.emit('tool.progress', 'b', { tool: 't', payload: `b${n}`, n });
        if (performance.now() - started < 600) return;
        clearInterval(timer);
        resolve();
      }, 4);
    });
    await textSettled();
    observer.disconnect();
    expect(lineTexts(element)).toEqual([`a${n}`, `b${n}`]);
    for (const times of writes.values()) {
      expect(times.length).toBeGreaterThanOrEqual(4);
      // At most ten writes a second; with reports in every frame, a write at least every 100 ms
      // (and a frame or two of a busy machine's slack).
      for (let i = 1; i < times.length; i++) {
        expect(times[i]! - times[i - 1]!).toBeGreaterThan(90);
        expect(times[i]! - times[i - 1]!).toBeLessThan(160);
      }
    }
  });

  it('writes a line out of view only once it is back in view, then with its latest text and bar', async () => {
    const source = fakeSource();
    const element = container();
    // A scroll box that shows the first few of twenty lines.
    element.style.cssText = 'display:block;block-size:120px;overflow:auto';
    attachStatus(element, source);
    for (let i = 0; i < 20; i++) source.emit('tool.started', `c${i}`, { tool: 't' });
    await frames(3);
    const last = element.querySelectorAll<HTMLElement>('.toolctx-status__line')[19]!;
    const writes: MutationRecord[] = [];
    const observer = new MutationObserver((records) => writes.push(...records));
    observer.observe(last, { subtree: true, characterData: true, attributes: true, childList: true });
    for (let n = 1; n <= 5; n++) {
      source.emit('tool.progress', 'c0', { tool: 't', payload: { message: `first ${n}` }, n });
      source.emit('tool.progress', 'c19', {
        tool: 't',
        payload: { message: `last ${n}`, done: n, total: 5 },
        n,
      });
      await textSettled();
    }
    // The line in view follows; the one out of view was not written at all.
    expect(lineTexts(element)[0]).toBe('first 5');
    expect(
      writes.filter((record) => record.type !== 'attributes' || record.attributeName !== 'data-reporting'),
    ).toEqual([]);
    // A finish is news, in view or not: the next frame folds it.
    source.emit('tool.progress', 'c18', { tool: 't', payload: { message: 'c18 report' }, n: 1 });
    source.emit('tool.progress', 'c18', { tool: 't', payload: { message: 'c18 report' }, n: 2 });
    source.emit('tool.finished', 'c18', { tool: 't', durationMs: 5 });
    await frames(1);
    expect(lineTexts(element.querySelector('.toolctx-status__finished')!)).toEqual(['t done']);
    last.scrollIntoView();
    await textSettled();
    observer.disconnect();
    expect(lineTexts(last)).toEqual(['last 5']);
    expect(barValues(last)).toEqual([[5, 5]]);
  });

  it('writes the latest text of a line in view of its own page, in an iframe its parent shows nowhere', async () => {
    const frame = document.createElement('iframe');
    frame.style.cssText = 'position:fixed;top:-5000px;left:0;inline-size:600px;block-size:400px';
    document.body.append(frame);
    const inner = frame.contentDocument!;
    const element = inner.createElement('section');
    inner.body.append(element);
    const source = fakeSource();
    attachStatus(element, source);
    source.emit('tool.started', 'a', { tool: 't' });
    source.emit('tool.progress', 'a', { tool: 't', payload: { message: 'one' }, n: 1 });
    await frames(3);
    source.emit('tool.progress', 'a', { tool: 't', payload: { message: 'two', done: 2, total: 2 }, n: 2 });
    await textSettled();
    expect(lineTexts(element)).toEqual(['two']);
    expect(barValues(element)).toEqual([[2, 2]]);
  });

  it('writes every line where the page has no IntersectionObserver (a DOM emulation)', async () => {
    const saved = window.IntersectionObserver;
    Reflect.deleteProperty(window, 'IntersectionObserver');
    try {
      const source = fakeSource();
      const element = container();
      const handle = attachStatus(element, source);
      source.emit('tool.started', 'a', { tool: 't' });
      source.emit('tool.progress', 'a', { tool: 't', payload: { message: 'one', done: 1, total: 2 }, n: 1 });
      await frames();
      source.emit('tool.progress', 'a', { tool: 't', payload: { message: 'two', done: 2, total: 2 }, n: 2 });
      await textSettled();
      expect(lineTexts(element)).toEqual(['two']);
      expect(barValues(element)).toEqual([[2, 2]]);
      handle.detach();
    } finally {
      window.IntersectionObserver = saved;
    }
  });

  it('folds finished lines in the order the calls ended, a line whose text was held back too', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source);
    source.emit('tool.started', 'a', { tool: 'first' });
    source.emit('tool.started', 'b', { tool: 'second' });
    await frames();
    // Within 100 ms of its last write, so b's text is held back and b stays queued for a later frame.
    source.emit('tool.progress', 'b', { tool: 'second', payload: 'held back', n: 1 });
    await frames(1);
    source.emit('tool.finished', 'a', { tool: 'first', durationMs: 1 });
    source.emit('tool.finished', 'b', { tool: 'second', durationMs: 1 });
    await frames();
    expect(lineTexts(element)).toEqual(['first done', 'second done']);
  });

  it('gives parallel calls of a local run a line each, then done, failed and cancelled end states', async () => {
    const gates: Record<string, () => void> = {};
    const step = defineTool({
      name: 'step',
      description: 'Reports, then waits to be let go.',
      inputSchema: z.object({ id: z.string(), fail: z.boolean().default(false) }),
      execute: async ({ id, fail }, ctx) => {
        ctx.progress({ message: `working on ${id}` });
        await new Promise<void>((resolve) => {
          gates[id] = resolve;
        });
        if (fail) throw new ToolctxError('tool-error', `Could not finish ${id}.`);
        return id;
      },
    });
    const run = createRuntime({ tools: [step] }).startRun();
    const element = container();
    attachStatus(element, run);
    const cancel = new AbortController();
    const results = run.callBatch([
      { tool: 'step', args: { id: 'a' } },
      { tool: 'step', args: { id: 'b', fail: true } },
      { tool: 'step', args: { id: 'c' }, signal: cancel.signal },
    ]);
    await frames();
    expect(lineTexts(element)).toEqual(['working on a', 'working on b', 'working on c']);
    const states = () =>
      [...element.querySelectorAll<HTMLElement>('.toolctx-status__line')].map((row) => row.dataset.state);
    expect(states()).toEqual(['running', 'running', 'running']);
    // One at a time, so the order they end in is the order written here.
    cancel.abort();
    await frames();
    gates.a!();
    await frames();
    gates.b!();
    await results;
    await frames();
    // Finished rows fold in the order they ended.
    expect(states()).toEqual(['cancelled', 'done', 'failed']);
    expect(lineTexts(element)).toEqual(['step cancelled', 'step done', 'step failed']);
    const failed = element.querySelector<HTMLElement>('.toolctx-status__line[data-state=failed]')!;
    expect(getComputedStyle(failed).transitionProperty).toBe('opacity');
    expect(getComputedStyle(failed).color).toBe('rgb(179, 38, 30)');
  });

  it('dims end states without a transition when motion is reduced', async () => {
    const session = cdp();
    await session.send('Emulation.setEmulatedMedia', {
      features: [{ name: 'prefers-reduced-motion', value: 'reduce' }],
    });
    try {
      const source = fakeSource();
      const element = container();
      attachStatus(element, source);
      source.emit('tool.finished', 'a', { tool: 't', durationMs: 1 });
      await frames();
      const row = element.querySelector<HTMLElement>('.toolctx-status__line')!;
      expect(getComputedStyle(row).transitionProperty).toBe('none');
      expect(Number(getComputedStyle(row).opacity)).toBeLessThan(1);
    } finally {
      await session.send('Emulation.setEmulatedMedia', { features: [] });
    }
  });

  it('detach() removes its listener and its DOM, and writes nothing after', async () => {
    const source = fakeSource();
    const element = container();
    const status = attachStatus(element, source);
    source.emit('tool.started', 'a', { tool: 't' });
    await frames();
    expect(source.listeners).toBe(1);
    source.emit('tool.progress', 'a', { tool: 't', payload: 'queued but never drawn', n: 1 });
    let mutations = 0;
    const observer = new MutationObserver((records) => {
      mutations += records.length;
    });
    observer.observe(element, { subtree: true, childList: true, characterData: true, attributes: true });
    status.detach();
    await frames(1);
    const afterDetach = mutations;
    expect(afterDetach).toBe(1); // the widget's root leaving
    expect(element.childNodes).toHaveLength(0);
    expect(source.listeners).toBe(0);
    source.emit('tool.progress', 'a', { tool: 't', payload: 'late', n: 2 });
    await frames(3);
    expect(mutations).toBe(afterDetach);
    observer.disconnect();
    status.detach();
  });

  it('shows markup in a message as text and runs none of it', async () => {
    const ran: string[] = [];
    (window as unknown as { pwned: (what: string) => void }).pwned = (what) => ran.push(what);
    const source = fakeSource();
    const element = container();
    attachStatus(element, source, {
      templates: { 'tool.failed': '{error}' },
    });
    const attack = '<img src=x onerror=pwned("img")><script>pwned("script")</script>';
    source.emit('tool.progress', 'a', { tool: 't', payload: { message: attack }, n: 1 });
    source.emit('tool.failed', 'b', {
      tool: '<b onmouseover=pwned("tool")>',
      durationMs: 1,
      error: { kind: 'tool-error', message: attack, retryable: false },
    });
    await frames(3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lineTexts(element)).toEqual([attack, attack]);
    expect(element.querySelector('img, script, b')).toBeNull();
    expect(ran).toEqual([]);
  });
});
