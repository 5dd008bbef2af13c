/// <reference types="@vitest/browser-playwright" />
import axe from 'axe-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cdp, page } from 'vitest/browser';
import { attachStatus } from './attach-status.js';
import { defineStatusElement, type StatusElement } from './status-element.js';
import { container, fakeSource, frames, manualClock } from './test-helpers.js';

afterEach(async () => {
  vi.useRealTimers();
  document.body.replaceChildren();
  await cdp().send('Emulation.setEmulatedMedia', { features: [] });
});

const failure = { kind: 'tool-error', message: 'The server answered 503.', retryable: false };

/** A run in every state at once: running with a bar, stalled, near its timeout, done and failed. */
async function scene(options: { expanded?: boolean } = {}) {
  await page.viewport(800, 600);
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const clock = manualClock();
  const source = fakeSource(clock.now);
  const element = container();
  element.style.cssText = 'inline-size:32rem;padding:1rem;font:15px system-ui,sans-serif';
  // Each running line carries its Cancel, so the axe runs below cover the controls too.
  attachStatus(element, source, { now: clock.now, locale: 'en', actions: { cancel() {} }, ...options });
  source.emit('tool.started', 'crawl', { tool: 'crawl' });
  source.emit('tool.started', 'fetch', { tool: 'fetch', timeoutMs: 30_000 });
  source.emit('tool.started', 'search', { tool: 'search' });
  source.emit('tool.finished', 'lookup', { tool: 'lookup', durationMs: 840 });
  source.emit('tool.failed', 'upload', { tool: 'upload', durationMs: 2300, error: failure });
  clock.set(13_000);
  source.emit('tool.progress', 'crawl', {
    tool: 'crawl',
    payload: { message: 'Page 7 of 12', done: 7, total: 12 },
    n: 1,
  });
  source.emit('tool.progress', 'fetch', { tool: 'fetch', payload: 'Downloading report.pdf', n: 1 });
  clock.set(27_000);
  source.emit('tool.progress', 'crawl', {
    tool: 'crawl',
    payload: { message: 'Page 9 of 12', done: 9, total: 12 },
    n: 2,
  });
  vi.advanceTimersByTime(1000);
  await frames(2);
  return element;
}

const shoot = (element: HTMLElement, name: string) =>
  page.elementLocator(element).screenshot({ path: `__screenshots__/status/${name}.png` });

describe('how the widget looks and reads', () => {
  it('has no axe violations, folded and expanded', async () => {
    const element = await scene();
    const folded = await axe.run(element);
    expect(folded.violations.map((v) => v.id)).toEqual([]);
    element.querySelector<HTMLButtonElement>('.toolctx-status__toggle')!.click();
    const expanded = await axe.run(element);
    expect(expanded.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
    expect(expanded.passes.map((p) => p.id)).toContain('color-contrast');
  });

  it('has no axe violations in the dark scheme', async () => {
    await cdp().send('Emulation.setEmulatedMedia', {
      features: [{ name: 'prefers-color-scheme', value: 'dark' }],
    });
    const element = await scene({ expanded: true });
    element.style.background = '#1f1f1f';
    const result = await axe.run(element);
    expect(result.violations.map((v) => v.id)).toEqual([]);
    const summary = element.querySelector('.toolctx-status__summary')!;
    expect(getComputedStyle(summary).color).toBe('rgb(227, 227, 227)');
    await shoot(element, 'status-dark');
  });

  it('keeps screenshots of the running, stalled, failed, folded and expanded states', async () => {
    const element = await scene();
    const lines = element.querySelectorAll<HTMLElement>('.toolctx-status__lines .toolctx-status__line');
    expect([...lines].map((line) => line.dataset.note ?? '')).toEqual(['', 'timeout', 'stalled']);
    await shoot(element, 'status-running');
    await shoot(lines[1]!, 'status-stalled');
    await shoot(element, 'status-folded');
    element.querySelector<HTMLButtonElement>('.toolctx-status__toggle')!.click();
    await frames();
    await shoot(element, 'status-expanded');
    const failed = element.querySelector<HTMLElement>('.toolctx-status__line[data-state=failed]')!;
    expect(failed.checkVisibility()).toBe(true);
    await shoot(failed, 'status-failed');
  });

  it('takes theming through custom properties and ::part', async () => {
    defineStatusElement();
    const style = document.createElement('style');
    style.textContent =
      'toolctx-status{--toolctx-status-failed-color:rgb(1, 2, 3)}toolctx-status::part(summary){color:rgb(4, 5, 6)}';
    document.head.append(style);
    try {
      const status = document.createElement('toolctx-status') as StatusElement;
      status.options = { expanded: true };
      document.body.append(status);
      const source = fakeSource();
      status.source = source;
      source.emit('tool.failed', 'a', { tool: 't', durationMs: 1, error: failure });
      await frames();
      const shadow = status.shadowRoot!;
      expect(getComputedStyle(shadow.querySelector('[part=summary]')!).color).toBe('rgb(4, 5, 6)');
      expect(getComputedStyle(shadow.querySelector('[data-state=failed]')!).color).toBe('rgb(1, 2, 3)');
    } finally {
      style.remove();
    }
  });

  it('stops the running pulse when motion is reduced', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source);
    source.emit('tool.started', 'a', { tool: 't' });
    await frames();
    const row = element.querySelector<HTMLElement>('.toolctx-status__line')!;
    expect(getComputedStyle(row, '::before').animationName).toBe('toolctx-pulse');
    await cdp().send('Emulation.setEmulatedMedia', {
      features: [{ name: 'prefers-reduced-motion', value: 'reduce' }],
    });
    expect(getComputedStyle(row, '::before').animationName).toBe('none');
  });
});
