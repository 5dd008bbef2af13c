import { createHmac, randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportText } from '../../apps/demo/src/tools.js';
import { budget } from '../slowdown.js';
import { columnsReady, openBrowser } from './demo-page.js';
import { type RunningDemo, startDemo } from './demo-server.js';

// The demo as a person uses it: the real Worker under `wrangler dev`, the built page in headless
// Chromium. The tests run in order and share one page, as one visit would.
const output = fileURLToPath(new URL('./output/', import.meta.url));
const workerKey = `workerkey_${randomUUID()}`;
const sides = ['page', 'worker'] as const;
type SideName = (typeof sides)[number];

let demo: RunningDemo;
let browser: Browser;
let page: Page;
/** The ref of the report the Worker side stored, downloaded, and must keep across a restart. */
let workerReport = '';
/** Every response body the page received, except event streams (read separately below). */
const bodies: Promise<string>[] = [];

const column = (side: SideName) => page.locator(`[data-side="${side}"]`);
const action = (side: SideName, name: string) => column(side).locator(`[data-action="${name}"]`);
const result = (side: SideName) => column(side).locator('[data-role="result"]');

/** Waits until the side's result box is in `state` (`ok`, `running` or an error kind); returns its text. */
async function resultIn(side: SideName, state: string): Promise<string> {
  await column(side)
    .locator(`[data-role="result"][data-state="${state}"]`)
    .waitFor({ timeout: budget(20_000) });
  return (await result(side).textContent()) ?? '';
}

/**
 * Waits until the side's status shows `Checked item N of total` with N ≥ `atLeast` (a busy machine
 * may skip a frame or two, so no exact N is required); returns that moment, read in one go.
 */
async function progressOf(side: SideName, total: number, atLeast: number) {
  const handle = await page.waitForFunction(
    ({ selector, total, atLeast }) => {
      const root = document.querySelector(selector)!;
      const text = root.querySelector('[data-role="status"]')?.textContent ?? '';
      const item = Number(new RegExp(`Checked item (\\d+) of ${total}`).exec(text)?.[1] ?? 0);
      if (item < atLeast) return undefined;
      const bar = root.querySelector('[role="progressbar"]');
      const result = (root.querySelector('[data-role="result"]') as HTMLElement).dataset.state;
      const aria = (name: string) => Number(bar?.getAttribute(name));
      return { item, result, bar: bar && { value: aria('aria-valuenow'), max: aria('aria-valuemax') } };
    },
    { selector: `[data-side="${side}"]`, total, atLeast },
    { timeout: budget(20_000) },
  );
  return (await handle.jsonValue())!;
}

async function shoot(name: string): Promise<void> {
  await page.screenshot({ path: `${output}${name}.png`, fullPage: true });
}

beforeAll(async () => {
  await mkdir(output, { recursive: true });
  demo = await startDemo({ DEMO_API_KEY: workerKey });
  const opened = await openBrowser({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  ({ browser, page } = opened);
  page.on('response', (response) => {
    if (response.headers()['content-type']?.includes('text/event-stream')) return;
    bodies.push(
      response.body().then(
        (body) => body.toString('utf8'),
        () => '',
      ),
    );
  });
  await page.goto(demo.url);
  await columnsReady(opened, demo);
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

describe('the demo page', () => {
  it.each(sides)('%s side: progress lines arrive before the long tool completes', async (side) => {
    await column(side).locator('[data-field="steps"]').fill('6');
    await action(side, 'build').click();
    // One look at the page, in one task: a report is shown while the call still runs.
    const moment = await progressOf(side, 6, 2);
    expect(moment.item).toBeLessThan(6);
    expect(moment.result).toBe('running');
    expect(moment.bar).toEqual({ value: moment.item, max: 6 });
    await shoot(`${side}-progress`);

    expect(await resultIn(side, 'ok')).toMatch(/build_report → \{\s+"steps": 6,\s+"report": "art_/);
    // Finished lines fold behind the widget's summary button: present, not necessarily visible.
    await column(side)
      .locator('.toolctx-status__line[data-state="done"]')
      .first()
      .waitFor({ state: 'attached' });
  });

  it.each(sides)('%s side: Cancel aborts the long tool and the status says cancelled', async (side) => {
    await column(side).locator('[data-field="steps"]').fill('100');
    await action(side, 'build').click();
    await progressOf(side, 100, 1);
    await action(side, 'cancel').click();
    expect(await resultIn(side, 'aborted')).toContain('"kind": "aborted"');
    await column(side)
      .locator('.toolctx-status__line[data-state="cancelled"]')
      .waitFor({ state: 'attached' });
    await shoot(`${side}-cancelled`);
  });

  it.each(sides)(
    '%s side: a tool that needs approval runs when approved, and not when denied',
    async (side) => {
      await action(side, 'publish').click();
      await resultIn(side, 'approval-pending');
      expect(await action(side, 'approve').isEnabled()).toBe(true);
      await action(side, 'approve').click();
      expect(await resultIn(side, 'ok')).toContain('"published": true');

      await action(side, 'publish').click();
      await resultIn(side, 'approval-pending');
      await action(side, 'deny').click();
      expect(await resultIn(side, 'approval-denied')).toContain('Denied in the demo.');
      expect(await action(side, 'approve').isDisabled()).toBe(true);
    },
  );

  it.each(sides)(
    '%s side: with two builds running, each line’s Cancel cancels that build and no other',
    async (side) => {
      const line = (state: string) => column(side).locator(`.toolctx-status__line[data-state="${state}"]`);
      const cancelledBefore = await line('cancelled').count();
      await column(side).locator('[data-field="steps"]').fill('60');
      await action(side, 'build').click();
      await action(side, 'build').click();
      await expect.poll(() => line('running').count()).toBe(2);
      await line('running').first().getByText('Cancel').click();
      await expect.poll(() => line('cancelled').count()).toBe(cancelledBefore + 1);
      // The other build goes on: still running, still reporting.
      expect(await line('running').count()).toBe(1);
      const before = await line('running').textContent();
      await expect.poll(() => line('running').textContent(), { timeout: budget(5000) }).not.toBe(before);
      await line('running').getByText('Cancel').click();
      await expect.poll(() => line('cancelled').count()).toBe(cancelledBefore + 2);
      expect(await line('running').count()).toBe(0);
    },
  );

  it.each(sides)('%s side: with two approvals waiting, each is settled from its own line', async (side) => {
    const waiting = () => column(side).locator('.toolctx-status__line[data-state="pending"]');
    await action(side, 'publish').click();
    await resultIn(side, 'approval-pending');
    await action(side, 'publish').click();
    await expect.poll(() => waiting().count()).toBe(2);
    // The second one first: its line's Deny, then the first one's Approve.
    await waiting().nth(1).getByText('Deny').click();
    await expect.poll(() => waiting().count()).toBe(1);
    await waiting().first().getByText('Approve').click();
    await expect.poll(() => waiting().count()).toBe(0);
    expect(await resultIn(side, 'ok')).toContain('"published": true');
    expect(await action(side, 'approve').isDisabled()).toBe(true);
  });

  it.each(sides)('%s side: an artifact downloads with the bytes the tool stored', async (side) => {
    const link = column(side)
      .locator('[data-role="artifacts"] a', { hasText: /report/ })
      .first();
    if (side === 'worker') workerReport = (await link.getAttribute('data-ref')) ?? '';
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const bytes = await readFile(await download.path());
    expect(bytes.equals(Buffer.from(reportText(6), 'utf8'))).toBe(true);
  });

  it('runs the same tool on both sides at once, each with its own live status', async () => {
    for (const side of sides) {
      await column(side).locator('[data-field="steps"]').fill('20');
      await action(side, 'build').click();
    }
    const moments = await Promise.all(sides.map((side) => progressOf(side, 20, 4)));
    expect(moments.map((moment) => moment.result)).toEqual(['running', 'running']);
    await shoot('both-sides');
    for (const side of sides) expect(await resultIn(side, 'ok')).toContain('"steps": 20');
  });

  it('keeps the IndexedDB artifacts across a reload', async () => {
    const refsOf = (locator: Locator) =>
      locator
        .locator('a[data-ref]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('data-ref')));
    const before = await refsOf(column('page').locator('[data-role="artifacts"]'));
    expect(before.length).toBeGreaterThanOrEqual(2); // the report and the approved note
    await page.reload();
    await column('page').locator('[data-role="artifacts"] a[data-ref]').first().waitFor();
    const after = await refsOf(column('page').locator('[data-role="artifacts"]'));
    expect(after).toEqual(expect.arrayContaining(before));
  });

  it('uses the credential on both sides and never shows its value', async () => {
    for (const side of sides) await action(side, 'sign').click();
    const signatures: Record<SideName, string> = { page: '', worker: '' };
    for (const side of sides) {
      const text = await resultIn(side, 'ok');
      signatures[side] = /"signature": "([0-9a-f]{64})"/.exec(text)?.[1] ?? '';
    }
    // The page side's key lives in Cache Storage for its Web Worker; read it to look for it.
    const pageKey = await page.evaluate(async () => {
      const kept = await (await caches.open('toolctx-demo')).match('/page-side-demo-key');
      return kept ? kept.text() : '';
    });
    expect(pageKey).toMatch(/^pagekey_[0-9a-f]{48}$/);
    // The signatures prove each side used its own key.
    const hmac = (key: string) => createHmac('sha256', key).update('hello from the demo').digest('hex');
    expect(signatures).toEqual({ page: hmac(pageKey), worker: hmac(workerKey) });
    await shoot('demo');

    const shown = `${await page.content()}\n${await page.locator('body').textContent()}`;
    const responses = await Promise.all(bodies);
    const workerRunId = await column('worker').locator('[data-role="run-id"]').textContent();
    const events = await readEventStream(`${demo.url}/api/runs/${workerRunId}/events`);
    expect(events).toContain('sign_message');
    expect(responses.length).toBeGreaterThan(5);
    for (const key of [workerKey, pageKey]) {
      expect(shown).not.toContain(key);
      expect(events).not.toContain(key);
      for (const body of responses) expect(body).not.toContain(key);
    }
  });
});

describe('the demo Worker', () => {
  it('keeps its artifacts (R2 and KV) across a restart', async () => {
    expect(workerReport).toMatch(/^art_/); // the report downloaded above
    await demo.restart();
    const response = await fetch(`${demo.url}/api/artifacts/${workerReport}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(reportText(6), 'utf8'))).toBe(true);
  });
});

/** What a run's event stream holds so far: it stays open, so read until it goes quiet. */
async function readEventStream(url: string): Promise<string> {
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream' },
    signal: AbortSignal.timeout(1500),
  });
  let text = '';
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read())
      text += decoder.decode(read.value, { stream: true });
  } catch {
    // The timeout ended the read: everything recorded so far has arrived.
  }
  return text;
}
