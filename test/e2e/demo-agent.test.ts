import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../chromium.js';
import { type RunningDemo, startDemo } from './demo-server.js';

// The demo's scripted agent and its reload, as a visitor meets them: the real Worker under
// `wrangler dev`, the built page in headless Chromium, one page for the whole visit.
const output = fileURLToPath(new URL('./output/', import.meta.url));
const sides = ['page', 'worker'] as const;
type SideName = (typeof sides)[number];

let demo: RunningDemo;
let browser: Browser;
let page: Page;

const column = (side: SideName) => page.locator(`[data-side="${side}"]`);
const action = (side: SideName, name: string) => column(side).locator(`[data-action="${name}"]`);
const agent = (side: SideName) => column(side).locator('[data-role="agent"]');
const agentLog = (side: SideName) => column(side).locator('[data-role="agent-log"]');
const lines = (side: SideName, text: string | RegExp) =>
  column(side).locator('.toolctx-status__line', { hasText: text });
const artifactNames = (side: SideName) =>
  column(side)
    .locator('[data-role="artifacts"] a[data-ref]')
    .evaluateAll((links) => links.map((link) => link.textContent ?? ''));

async function agentIn(side: SideName, state: string, timeout = 30_000): Promise<void> {
  await column(side).locator(`[data-role="agent"][data-state="${state}"]`).waitFor({ timeout });
}

async function shoot(name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${output}${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

beforeAll(async () => {
  await mkdir(output, { recursive: true });
  demo = await startDemo();
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(demo.url);
  for (const side of sides) await column(side).locator('[data-role="run-id"]').waitFor();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

describe("the demo's scripted agent", () => {
  it.each(sides)(
    '%s side: the agent runs its steps, pauses for approval and goes on when approved',
    async (side) => {
      await action(side, 'agent').click();
      await agentIn(side, 'paused');
      // Every step before the approval ran as a call of the column's run, so the widget shows it.
      for (const tool of ['gather_sources', 'build_report', 'sign_message']) {
        await lines(side, tool)
          .and(column(side).locator('[data-state="done"]'))
          .first()
          .waitFor({ state: 'attached' });
      }
      await expect
        .poll(() => agentLog(side).textContent())
        .toContain('Paused: publish_note waits for your approval');
      await shoot(`${side}-agent-paused`); // the worker side's at 1280 px is docs/demo.png
      // Paused means paused: a while later the agent has not gone on by itself.
      await page.waitForTimeout(1000);
      expect(await agent(side).getAttribute('data-state')).toBe('paused');
      expect(await agentLog(side).textContent()).not.toContain('Done:');

      await action(side, 'approve').click();
      await agentIn(side, 'done');
      expect(await agentLog(side).textContent()).toMatch(/Done: report art_\S+ built from 3 sources/);
      await expect
        .poll(() => artifactNames(side))
        .toEqual(expect.arrayContaining(['note.txt', 'report-4-steps.txt']));
    },
  );

  it('worker side: Stop cancels the call the agent waits on', async () => {
    await column('worker').locator('[data-field="pace"]').fill('4000');
    await action('worker', 'agent').click();
    await lines('worker', /gather_sources|Found source/)
      .and(column('worker').locator('[data-state="running"]'))
      .waitFor();
    await action('worker', 'agent-stop').click();
    await agentIn('worker', 'stopped');
    await lines('worker', 'gather_sources')
      .and(column('worker').locator('[data-state="cancelled"]'))
      .waitFor({ state: 'attached', timeout: 20_000 });
  });

  it('page side: Stop while the agent waits for approval answers it no and leaves nothing pending', async () => {
    await action('page', 'agent').click();
    await agentIn('page', 'paused');
    await action('page', 'agent-stop').click();
    await agentIn('page', 'stopped');
    expect(await action('page', 'approve').isDisabled()).toBe(true);
    await lines('page', 'publish_note')
      .and(column('page').locator('[data-state="failed"]'))
      .waitFor({ state: 'attached' });
    expect(await column('page').locator('.toolctx-status__line[data-state="pending"]').count()).toBe(0);
  });

  it('page side: a slowed tool shows a stall note, then a near-timeout note', async () => {
    await column('page').locator('[data-field="pace"]').fill('4500');
    await action('page', 'gather').click();
    const gathering = lines('page', /gather_sources|Found source/).and(
      column('page').locator('[data-state="running"]'),
    );
    // Silent for 3 s: stalled; 5 s before its 12 s timeout: the timeout note takes over.
    await gathering.and(column('page').locator('[data-note="stalled"]')).waitFor({ timeout: 10_000 });
    expect(await gathering.textContent()).toContain('no report for');
    await gathering.and(column('page').locator('[data-note="timeout"]')).waitFor({ timeout: 10_000 });
    expect(await gathering.textContent()).toContain('times out in');
    await shoot('page-near-timeout');
    await column('page').locator('[data-field="pace"]').fill('400');
  });
});

describe('a reload of the demo', () => {
  it('keeps the Worker run: a call mid-way keeps its line, finishes live, and earlier artifacts are listed', async () => {
    await column('worker').locator('[data-field="steps"]').fill('20');
    await action('worker', 'build').click();
    await lines('worker', /Checked item [2-9] of 20/).waitFor({ timeout: 20_000 });
    const runId = await column('worker').locator('[data-role="run-id"]').textContent();
    const pageBefore = await artifactNames('page');

    await page.reload();
    await column('worker').locator('[data-role="run-id"]').waitFor();
    expect(await column('worker').locator('[data-role="run-id"]').textContent()).toBe(runId);
    // The call started before the reload is still running, and its line carries on live.
    await lines('worker', /Checked item \d+ of 20/)
      .and(column('worker').locator('[data-state="running"]'))
      .waitFor({ timeout: 10_000 });
    await shoot('worker-after-reload');
    await expect
      .poll(() => artifactNames('worker'), { timeout: 20_000 })
      .toEqual(expect.arrayContaining(['note.txt', 'report-4-steps.txt', 'report-20-steps.txt']));
    // It finished as done, not cancelled: the agent's build and this one, nothing left running.
    await expect
      .poll(() =>
        lines('worker', 'build_report').and(column('worker').locator('[data-state="done"]')).count(),
      )
      .toBe(2);
    expect(await column('worker').locator('.toolctx-status__line[data-state="running"]').count()).toBe(0);
    // The page side's artifacts come back from IndexedDB.
    await expect.poll(() => artifactNames('page')).toEqual(expect.arrayContaining(pageBefore));
    expect(pageBefore).toContain('note.txt');
  });
});
