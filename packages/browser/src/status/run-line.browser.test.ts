import { afterEach, describe, expect, it } from 'vitest';
import { attachStatus } from './attach-status.js';
import { container, fakeSource, frames } from './test-helpers.js';

afterEach(() => {
  document.body.replaceChildren();
});

const q = (root: ParentNode, name: string) => root.querySelector(`.toolctx-status__${name}`)!;

describe('the run line and the words of a line', () => {
  it('renders the tool name as <code>, with no backtick anywhere in the widget’s text', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source, { expanded: true });
    source.emit('tool.started', 'a', { tool: 'build_report' });
    source.emit('tool.finished', 'b', { tool: 'publish', durationMs: 400 });
    source.emit('tool.failed', 'c', {
      tool: 'slow',
      durationMs: 5,
      error: { kind: 'unknown-tool', message: '`slow` is not a tool.', retryable: false },
    });
    await frames();
    const codes = [...element.querySelectorAll('.toolctx-status__text code')];
    expect(codes.map((code) => [code.textContent, code.getAttribute('part')])).toEqual([
      ['build_report', 'code'],
      ['publish', 'code'],
      ['slow', 'code'],
    ]);
    expect(q(element, 'line').textContent).toContain('build_report started…');
    expect(element.textContent).not.toContain('`');
    expect(getComputedStyle(codes[0]!).fontFamily).toMatch(/monospace/);
  });

  it('writes a new message into the same nodes while a line keeps its shape', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source, { templates: { 'tool.progress': '{tool}: {message}' } });
    source.emit('tool.progress', 'a', { tool: 'crawl', payload: 'page 1', n: 1 });
    await frames();
    const code = q(element, 'text').querySelector('code');
    await new Promise((resolve) => setTimeout(resolve, 110));
    source.emit('tool.progress', 'a', { tool: 'crawl', payload: 'page 2', n: 2 });
    await frames();
    expect(q(element, 'text').textContent).toBe('crawl: page 2');
    expect(q(element, 'text').querySelector('code')).toBe(code);
  });

  it('shows a call waiting for approval as waiting, on its line and in the run line', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source);
    source.emit('tool.started', 'a', { tool: 'publish' });
    source.emit('tool.started', 'b', { tool: 'build' });
    source.emit('tool.pending', 'a', { tool: 'publish', reason: 'approval', id: 'apr_1' });
    await frames();
    const waiting = element.querySelector('.toolctx-status__line[data-state="pending"]')!;
    expect(waiting.textContent).toContain('publish is waiting for approval…');
    expect(q(element, 'summary').textContent).toBe('1 running, 1 waiting · 0 of 2 done');
    expect(element.querySelectorAll('[data-state="running"]')).toHaveLength(1);
  });

  it('says a denial with the person’s reason and counts a cancel in the run line', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source, { expanded: true });
    source.emit('tool.failed', 'a', {
      tool: 'publish',
      durationMs: 5,
      error: {
        kind: 'approval-denied',
        message: '`publish` was not approved: Denied in the demo. Do not call it again unchanged.',
        retryable: false,
        details: { reason: 'Denied in the demo.' },
      },
    });
    source.emit('tool.failed', 'b', {
      tool: 'build',
      durationMs: 5,
      error: { kind: 'aborted', message: 'Cancelled.', retryable: false },
    });
    source.emit('tool.finished', 'c', { tool: 'build', durationMs: 5 });
    await frames();
    expect([...element.querySelectorAll('.toolctx-status__text')].map((node) => node.textContent)).toEqual([
      'publish not approved — Denied in the demo.',
      'build cancelled',
      'build done',
    ]);
    expect(q(element, 'summary').textContent).toBe('1 done, 1 failed, 1 cancelled of 3');
    expect(element.textContent).not.toContain('Do not call it again');
  });
});
