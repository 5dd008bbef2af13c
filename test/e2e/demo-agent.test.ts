import { mkdir, readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../slowdown.js';
import { columnsReady, openBrowser } from './demo-page.js';
import { type RunningDemo, startDemo } from './demo-server.js';
import {
  type DocsImage,
  docsDir,
  docsImages,
  shootScene,
  widgetImages,
  writesDocs,
  written,
} from './docs-images.js';

// The demo's scripted agent and its reload, as a visitor meets them: the real Worker under
// `wrangler dev`, the built page in headless Chromium, one page for the whole visit.
const output = fileURLToPath(new URL('./output/', import.meta.url));
const sides = ['page', 'worker'] as const;
type SideName = (typeof sides)[number];

let demo: RunningDemo;
let browser: Browser;
let page: Page;
// What the page said and which requests failed, printed when a test fails (CI keeps no screenshots).
let journal: string[] = [];

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
  await column(side)
    .locator(`[data-role="agent"][data-state="${state}"]`)
    .waitFor({ timeout: budget(timeout) });
}

/** The whole page at 1280 and 390 px; `image` names the docs image the 1280 px one is. */
async function shoot(name: string, image?: DocsImage): Promise<void> {
  await shootScene(page, `${name}-1280`, image);
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: `${output}${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** One column's live status widget, as the docs show it. */
const widget = (side: SideName) => column(side).locator('[data-role="status"]');

beforeAll(async () => {
  await mkdir(output, { recursive: true });
  demo = await startDemo();
  const opened = await openBrowser({ viewport: { width: 1280, height: 900 } });
  ({ browser, page, journal } = opened);
  await page.goto(demo.url);
  await columnsReady(opened, demo);
});

afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail') return;
  const status = await column('worker')
    .locator('.toolctx-status__line')
    .evaluateAll((found) =>
      found.map((line) => `${(line as HTMLElement).dataset.state}: ${line.textContent}`),
    )
    .catch(() => []);
  console.log(['The page said:', ...journal, 'Worker status lines:', ...status].join('\n'));
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
  // `pnpm docs:images` fails rather than leave an image in docs/ from an older demo.
  const missing = Object.keys(docsImages).filter((image) => !written.has(image as DocsImage));
  if (writesDocs && missing.length > 0) throw new Error(`No scene wrote ${missing.join(', ')}.`);
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
      // The widget shows what waits, in words, with its own Approve and Deny.
      const waiting = lines(side, 'publish_note').and(column(side).locator('[data-state="pending"]'));
      expect(await waiting.locator('button').allTextContents()).toEqual(['Approve', 'Deny']);
      // Described in words from the call's arguments, not as JSON.
      expect(await waiting.textContent()).toMatch(/publish_note: text “[^”]+”/);
      // Both buttons inside the widget, side by side.
      const [box, approve, deny] = await Promise.all(
        [widget(side), waiting.getByText('Approve'), waiting.getByText('Deny')].map((at) => at.boundingBox()),
      );
      expect(deny!.x + deny!.width).toBeLessThanOrEqual(box!.x + box!.width);
      expect(deny!.y).toBe(approve!.y);
      if (side === 'worker') {
        await shoot(`${side}-agent-paused`, 'demo.png');
        await shootScene(widget(side), `${side}-approval`, 'demo-approval.png');
        await page.setViewportSize({ width: 390, height: 900 });
        await shootScene(column(side), `${side}-phone`, 'demo-phone.png');
        await page.setViewportSize({ width: 1280, height: 900 });
      } else {
        await shoot(`${side}-agent-paused`);
      }
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
      .waitFor({ state: 'attached', timeout: budget(20_000) });
  });

  it('worker side: denied through the AI SDK’s approval, the tool never runs and the model reads the denial', async () => {
    await column('worker').locator('[data-field="pace"]').fill('400');
    const notes = async () => (await artifactNames('worker')).filter((name) => name === 'note.txt').length;
    const notesBefore = await notes();
    await action('worker', 'agent').click();
    await agentIn('worker', 'paused');
    await action('worker', 'deny').click();
    await agentIn('worker', 'done');
    const log = await agentLog('worker').textContent();
    expect(log).toContain('Denied: publish_note does not run (Denied in the demo.)');
    // The scripted model stops on the AI SDK's execution-denied result rather than carrying on.
    expect(log).toContain('I stopped: publish_note did not succeed (denied: Denied in the demo.)');
    expect(log).not.toContain('Done:');
    await lines('worker', 'publish_note')
      .and(column('worker').locator('[data-state="failed"]'))
      .first()
      .waitFor({ state: 'attached' });
    expect(await column('worker').locator('.toolctx-status__line[data-state="pending"]').count()).toBe(0);
    expect(await notes()).toBe(notesBefore);
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
    await column('page').locator('[data-field="steps"]').fill('40');
    await action('page', 'build').click();
    await column('page').locator('[data-field="pace"]').fill('4500');
    await action('page', 'gather').click();
    const gathering = lines('page', /gather_sources|Found source/).and(
      column('page').locator('[data-state="running"]'),
    );
    // Silent for 3 s: stalled; 5 s before its 12 s timeout: the timeout note takes over.
    await gathering.and(column('page').locator('[data-note="stalled"]')).waitFor({ timeout: budget(10_000) });
    expect(await gathering.textContent()).toContain('no report for');
    // Meanwhile the build reports as it goes: its line has a bar, and no note.
    const building = lines('page', /Checked item \d+ of 40/).and(
      column('page').locator('[data-state="running"]'),
    );
    expect(await building.locator('[role="progressbar"]').count()).toBe(1);
    expect(await building.getAttribute('data-note')).toBeNull();
    await shootScene(widget('page'), 'page-running', 'demo-running.png');
    await gathering.and(column('page').locator('[data-note="timeout"]')).waitFor({ timeout: budget(10_000) });
    expect(await gathering.textContent()).toContain('times out in');
    await shoot('page-near-timeout');
    await column('page').locator('[data-field="pace"]').fill('400');
    // Both end: the build done, the gather failed by its timeout.
    await expect
      .poll(() => column('page').locator('.toolctx-status__line[data-state="running"]').count(), {
        timeout: budget(30_000),
      })
      .toBe(0);
  });

  it('page side: the run line unfolds into the finished calls, each with its outcome and duration', async () => {
    const toggle = widget('page').locator('.toolctx-status__toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const finished = widget('page').locator('.toolctx-status__finished .toolctx-status__line:visible');
    const states = await finished.evaluateAll((found) =>
      found.map((line) => (line as HTMLElement).dataset.state),
    );
    // The visit so far: calls done, and two failed (the publish the Stop denied, the gather that timed out).
    expect(states.filter((state) => state === 'failed')).toHaveLength(2);
    expect(states.filter((state) => state === 'done').length).toBeGreaterThan(5);
    for (const text of await finished.allTextContents()) expect(text).toMatch(/\d s$|\d min \d+ s$/);
    await shootScene(widget('page'), 'page-summary', 'demo-summary.png');
    await toggle.click();
  });
});

describe('the page as a person sees it', () => {
  it('a whole session so far has logged no console error and no failed request', () => {
    expect(journal).toEqual([]);
  });

  it('at 1280 px the two columns line up: each heading at the same height', async () => {
    const tops = (side: SideName) =>
      column(side)
        .locator('h3')
        .evaluateAll((headings) =>
          headings.slice(0, 3).map((h) => Math.round(h.getBoundingClientRect().top)),
        );
    expect(await tops('worker')).toEqual(await tops('page'));
  });

  it('the dark scheme covers the whole page, and the widget sits on its column', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const colours = await page.evaluate(() => {
      const background = (selector: string) =>
        getComputedStyle(document.querySelector(selector)!).backgroundColor;
      return {
        page: getComputedStyle(document.documentElement).backgroundColor,
        column: background('[data-side="worker"]'),
        widget: background('[data-side="worker"] .toolctx-status'),
      };
    });
    await shoot('dark', 'demo-dark.png');
    await page.emulateMedia({ colorScheme: 'light' });
    const lightness = (rgb: string) =>
      rgb
        .match(/\d+/g)!
        .slice(0, 3)
        .reduce((sum, c) => sum + Number(c), 0) / 3;
    expect(lightness(colours.page)).toBeLessThan(60);
    expect(lightness(colours.column)).toBeLessThan(60);
    expect(colours.widget).toBe(colours.column);
  });

  it('an empty or waiting result box is not styled as a failure', async () => {
    await page.reload();
    await column('worker').locator('[data-role="run-id"]').waitFor();
    const border = () =>
      column('worker')
        .locator('[data-role="result"]')
        .evaluate((box) => getComputedStyle(box).borderLeftStyle);
    expect(await border()).toBe('none');
    await action('worker', 'publish').click();
    await column('worker').locator('[data-role="result"][data-state="approval-pending"]').waitFor();
    expect(await column('worker').locator('[data-role="result"]').textContent()).toContain(
      'waits for approval',
    );
    expect(
      await column('worker')
        .locator('[data-role="result"]')
        .evaluate((box) => getComputedStyle(box).borderLeftColor),
    ).not.toBe('rgb(179, 38, 30)');
    // Decided on its own status line, not the column's buttons.
    await column('worker')
      .locator('.toolctx-status__line[data-state="pending"] button', { hasText: 'Approve' })
      .click();
    await column('worker').locator('[data-role="result"][data-state="ok"]').waitFor();
    journal.length = 0; // the reload above aborts the page's open requests, as any reload does
  });
});

describe('a reload of the demo', () => {
  it(
    'keeps the Worker run: a call mid-way keeps its line, finishes live, and earlier artifacts are listed',
    async () => {
      await column('worker').locator('[data-field="steps"]').fill('20');
      await action('worker', 'build').click();
      await lines('worker', /Checked item [2-9] of 20/).waitFor({ timeout: budget(20_000) });
      const runId = await column('worker').locator('[data-role="run-id"]').textContent();
      const pageBefore = await artifactNames('page');

      await page.reload();
      await column('worker').locator('[data-role="run-id"]').waitFor();
      expect(await column('worker').locator('[data-role="run-id"]').textContent()).toBe(runId);
      // The call started before the reload is still running, and its line carries on live.
      await lines('worker', /Checked item \d+ of 20/)
        .and(column('worker').locator('[data-state="running"]'))
        .waitFor({ timeout: budget(10_000) });
      await shoot('worker-after-reload');
      await expect
        .poll(() => artifactNames('worker'), { timeout: budget(30_000) })
        .toEqual(expect.arrayContaining(['note.txt', 'report-4-steps.txt', 'report-20-steps.txt']));
      // It finished as done, not cancelled: the builds of the agent's two runs and this one,
      // nothing left running.
      await expect
        .poll(() =>
          lines('worker', 'build_report').and(column('worker').locator('[data-state="done"]')).count(),
        )
        .toBe(3);
      expect(await column('worker').locator('.toolctx-status__line[data-state="running"]').count()).toBe(0);
      // The page side's artifacts come back from IndexedDB.
      await expect.poll(() => artifactNames('page')).toEqual(expect.arrayContaining(pageBefore));
      expect(pageBefore).toContain('note.txt');
    },
    // Its waits add up to more than the project's per-test limit on a loaded machine: room for them.
    budget(120_000),
  );
});

describe('the images in docs/', () => {
  it('are exactly the scenes the e2e suites draw, and the README or the live-status guide shows each with its words', async () => {
    const inDocs = (await readdir(docsDir)).filter((name) => name.endsWith('.png')).sort();
    expect(inDocs).toEqual([...Object.keys(docsImages), ...Object.keys(widgetImages)].sort());
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const guide = await readFile(new URL('../../docs/guides/live-status.md', import.meta.url), 'utf8');
    for (const [image, words] of Object.entries(docsImages))
      expect(
        [readme.includes(`![${words}](docs/${image})`), guide.includes(`![${words}](../${image})`)],
        `${image} is shown with its words`,
      ).toContain(true);
    const browserReadme = await readFile(
      new URL('../../packages/browser/README.md', import.meta.url),
      'utf8',
    );
    for (const [image, words] of Object.entries(widgetImages))
      expect(browserReadme).toContain(
        `![${words}](https://raw.githubusercontent.com/toolctx/toolctx/main/docs/${image})`,
      );
  });
});
