import { germanTemplates } from '@toolctx/core/status';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { attachStatus } from './attach-status.js';
import { container, fakeSource, frames, manualClock } from './test-helpers.js';

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

// The ticker is a real setInterval made fake here; the clock is injected; frames stay real.
const fakeTicker = () => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
const q = (root: ParentNode, name: string) => root.querySelector<HTMLElement>(`.toolctx-status__${name}`)!;
const failure = { kind: 'tool-error', message: 'Broke.', retryable: false };

/** Moves the clock and the ticker on by `ms`, a second at a time, drawing each frame. */
async function pass(clock: ReturnType<typeof manualClock>, ms: number) {
  for (let left = ms; left > 0; left -= 1000) {
    clock.set(clock.now() + Math.min(1000, left));
    vi.advanceTimersByTime(Math.min(1000, left));
    await frames(1);
  }
  await frames(1);
}

describe('elapsed time and stalls', () => {
  it('shows each in-flight call’s elapsed time, written at most once a second', async () => {
    fakeTicker();
    const clock = manualClock();
    const source = fakeSource(clock.now);
    const element = container();
    attachStatus(element, source, { now: clock.now, locale: 'en' });
    source.emit('tool.started', 'a', { tool: 't' });
    await frames();
    const time = q(element, 'time');
    expect(time.textContent).toBe('0 s');
    let writes = 0;
    new MutationObserver((records) => {
      writes += records.length;
    }).observe(time, { childList: true, characterData: true, subtree: true });
    // A flood of reports within one second changes nothing on the clock.
    for (let n = 1; n <= 200; n++) source.emit('tool.progress', 'a', { tool: 't', payload: `r${n}`, n });
    await frames(2);
    expect(writes).toBe(0);
    await pass(clock, 5000);
    expect(time.textContent).toBe('5 s');
    expect(writes).toBe(5);
  });

  it('runs one ticker for all calls, only while something is in flight', async () => {
    fakeTicker();
    const clock = manualClock();
    const source = fakeSource(clock.now);
    attachStatus(container(), source, { now: clock.now });
    await frames();
    expect(vi.getTimerCount()).toBe(0);
    for (const id of ['a', 'b', 'c']) source.emit('tool.started', id, { tool: 't' });
    await frames();
    expect(vi.getTimerCount()).toBe(1);
    for (const id of ['a', 'b', 'c']) source.emit('tool.finished', id, { tool: 't', durationMs: 5 });
    await frames();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('says a silent call has had no report, and returns to normal at its next report', async () => {
    fakeTicker();
    const clock = manualClock();
    const source = fakeSource(clock.now);
    const element = container();
    attachStatus(element, source, { now: clock.now, locale: 'en', stallAfterMs: 10_000 });
    source.emit('tool.started', 'a', { tool: 't' });
    await pass(clock, 9000);
    expect(q(element, 'note').textContent).toBe('');
    await pass(clock, 3000);
    expect(q(element, 'note').textContent).toBe('no report for 12 s');
    expect(q(element, 'line').dataset.note).toBe('stalled');
    source.emit('tool.progress', 'a', { tool: 't', payload: 'back', n: 1 });
    await frames();
    expect(q(element, 'note').textContent).toBe('');
    expect(q(element, 'line').dataset.note).toBeUndefined();
    expect(q(element, 'time').textContent).toBe('12 s');
  });

  it('shows a near timeout before it fires', async () => {
    fakeTicker();
    const clock = manualClock();
    const source = fakeSource(clock.now);
    const element = container();
    attachStatus(element, source, { now: clock.now, locale: 'en' });
    source.emit('tool.started', 'a', { tool: 't', timeoutMs: 20_000 });
    await pass(clock, 14_000);
    expect(q(element, 'line').dataset.note).toBe('stalled');
    await pass(clock, 2000);
    expect(q(element, 'note').textContent).toBe('times out in 4 s');
    expect(q(element, 'line').dataset.note).toBe('timeout');
  });
});

describe('the run line and the fold', () => {
  it('sums the run up and folds finished calls behind a keyboard-usable button', async () => {
    const source = fakeSource(() => 0);
    const element = container();
    attachStatus(element, source, { locale: 'en' });
    for (const id of ['a', 'b', 'c', 'd', 'e']) source.emit('tool.started', id, { tool: `tool_${id}` });
    await frames();
    const toggle = q(element, 'toggle') as HTMLButtonElement;
    expect(q(element, 'fold').hidden).toBe(true);
    for (const id of ['a', 'b', 'c'])
      source.emit('tool.finished', id, { tool: `tool_${id}`, durationMs: 420 });
    source.emit('tool.failed', 'd', { tool: 'tool_d', durationMs: 2500, error: failure });
    await frames();
    expect(q(element, 'summary').textContent).toBe('1 running · 3 done, 1 failed of 5');
    expect(q(element, 'lines').children).toHaveLength(1);
    expect(toggle.tagName).toBe('BUTTON');
    expect(toggle.textContent).toBe('4 finished, 1 failed');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    const finished = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(finished.hidden).toBe(true);
    expect(finished.checkVisibility()).toBe(false);
    toggle.focus();
    await userEvent.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(finished.checkVisibility()).toBe(true);
    const rows = [...finished.querySelectorAll<HTMLElement>('.toolctx-status__line')].map((row) => [
      row.dataset.state,
      q(row, 'text').textContent,
      q(row, 'time').textContent,
    ]);
    expect(rows).toEqual([
      ['done', 'tool_a done', '0.4 s'],
      ['done', 'tool_b done', '0.4 s'],
      ['done', 'tool_c done', '0.4 s'],
      ['failed', 'tool_d failed', '2.5 s'],
    ]);
    await userEvent.keyboard(' ');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(finished.checkVisibility()).toBe(false);
  });
});

describe('languages', () => {
  it('speaks German with a template pack, numbers and durations by Intl', async () => {
    fakeTicker();
    const clock = manualClock();
    const source = fakeSource(clock.now);
    const element = container();
    attachStatus(element, source, { now: clock.now, templates: germanTemplates, locale: 'de' });
    source.emit('tool.started', 'a', { tool: 'suche' });
    source.emit('tool.finished', 'b', { tool: 'lesen', durationMs: 1500 });
    await pass(clock, 12_000);
    expect(q(element, 'summary').textContent).toBe('1 laufen · 1 von 2 fertig');
    expect(q(element, 'note').textContent).toBe('seit 12 s keine Meldung');
    expect(q(element, 'toggle').textContent).toBe('1 beendet');
    expect(q(q(element, 'finished'), 'time').textContent).toBe('1,5 s');
  });
});

describe('what a screen reader hears', () => {
  it('starts, finishes and failures at once; progress at most once per announceEveryMs', async () => {
    fakeTicker();
    const clock = manualClock();
    const source = fakeSource(clock.now);
    const element = container();
    attachStatus(element, source, { now: clock.now, announceEveryMs: 4000 });
    const region = element.querySelector<HTMLElement>('[aria-live="polite"]')!;
    const heard: string[] = [];
    new MutationObserver(() => heard.push(region.textContent ?? '')).observe(region, {
      childList: true,
      characterData: true,
      subtree: true,
    });
    source.emit('tool.started', 'a', { tool: 'crawl' });
    await frames();
    expect(heard).toEqual(['crawl started…']);
    for (let n = 1; n <= 50; n++)
      source.emit('tool.progress', 'a', { tool: 'crawl', payload: `page ${n}`, n });
    await frames();
    expect(heard).toHaveLength(2);
    expect(heard[1]).toBe('page 50');
    source.emit('tool.progress', 'a', { tool: 'crawl', payload: 'page 51', n: 51 });
    await pass(clock, 3000);
    expect(heard).toHaveLength(2);
    await pass(clock, 1000);
    expect(heard.at(-1)).toBe('page 51');
    source.emit('tool.failed', 'b', { tool: 'fetch', durationMs: 3, error: failure });
    source.emit('tool.finished', 'a', { tool: 'crawl', durationMs: 4000 });
    await frames();
    expect(heard.at(-1)).toBe('fetch failed\ncrawl done');
    expect(region.checkVisibility()).toBe(true);
    expect(region.getBoundingClientRect().width).toBeLessThanOrEqual(1);
  });

  it('reads progress out at most once per 5 s when announceEveryMs is not given', async () => {
    fakeTicker();
    const clock = manualClock();
    const source = fakeSource(clock.now);
    const element = container();
    attachStatus(element, source, { now: clock.now });
    const region = element.querySelector<HTMLElement>('[aria-live="polite"]')!;
    const heard: string[] = [];
    new MutationObserver(() => heard.push(region.textContent ?? '')).observe(region, {
      childList: true,
      characterData: true,
      subtree: true,
    });
    source.emit('tool.started', 'a', { tool: 'crawl' });
    source.emit('tool.progress', 'a', { tool: 'crawl', payload: 'page 1', n: 1 });
    await frames();
    expect(heard).toEqual(['crawl started…\npage 1']);
    // The next report waits while the ticker redraws at 1, 2, 3 and 4 s, and one more at 4.999 s…
    source.emit('tool.progress', 'a', { tool: 'crawl', payload: 'page 2', n: 2 });
    await pass(clock, 4999);
    source.emit('tool.progress', 'a', { tool: 'crawl', payload: 'page 3', n: 3 });
    await frames(3);
    expect(heard).toHaveLength(1);
    // …and the latest is read out at 5 s, by the ticker, with no further event.
    await pass(clock, 1);
    expect(heard).toEqual(['crawl started…\npage 1', 'page 3']);
  });

  it('refuses an announcement interval that is not a positive number', () => {
    expect(() => attachStatus(container(), fakeSource(), { announceEveryMs: 0 })).toThrow(/announceEveryMs/);
  });
});
