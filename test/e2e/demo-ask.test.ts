import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../slowdown.js';
import { columnsReady, openBrowser } from './demo-page.js';
import { type RunningDemo, startDemo } from './demo-server.js';
import { shootScene } from './docs-images.js';

// A tool that asks its user, as a visitor meets it: the demo's `schedule_meeting` in the page's
// Web Worker, its question a form on the call's status line, answered there with the browser's
// own controls. The real Worker under `wrangler dev`, the built page in headless Chromium.
const output = fileURLToPath(new URL('./output/', import.meta.url));

let demo: RunningDemo;
let browser: Browser;
let page: Page;
let journal: string[] = [];

const column = () => page.locator('[data-side="page"]');
const widget = () => column().locator('[data-role="status"]');
const form = () => widget().locator('form');

/** Waits until the column's result box is in `state`; returns its text. */
async function resultIn(state: string): Promise<string> {
  const box = column().locator(`[data-role="result"][data-state="${state}"]`);
  await box.waitFor({ timeout: budget(20_000) });
  return (await box.textContent()) ?? '';
}

beforeAll(async () => {
  await mkdir(output, { recursive: true });
  demo = await startDemo();
  const opened = await openBrowser({ viewport: { width: 1280, height: 900 } });
  ({ browser, page, journal } = opened);
  await page.goto(demo.url);
  await columnsReady(opened, demo);
});

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') console.log(['The page said:', ...journal].join('\n'));
});

afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

describe('a tool that asks, in the demo', () => {
  it('shows its form on the call’s line; filled in and sent there, the tool gets the answer', async () => {
    await column().locator('[data-action="schedule"]').click();
    await form().waitFor({ timeout: budget(20_000) });
    const line = widget().locator('.toolctx-status__line:has(form)');
    expect(await line.getAttribute('data-state')).toBe('pending');
    expect(await line.locator('.toolctx-status__text').textContent()).toBe(
      'schedule_meeting asks: When shall we meet about “the demo”?',
    );
    // The form is named by its line, and each control by its label.
    expect(await page.getByRole('form', { name: /schedule_meeting asks/ }).count()).toBe(1);
    await form().getByLabel('Day').fill('2026-05-04');
    await form().getByLabel('Length (minutes)').fill('45');
    await form().getByLabel('Online').uncheck();
    await form().getByLabel('Notes').fill('Bring the <b>plan</b>');
    await shootScene(widget(), 'page-ask', 'ask-form.png');
    await form().getByLabel('Notes').press('Enter');
    const result = JSON.parse((await resultIn('ok')).replace(/^schedule_meeting → /, ''));
    expect(result).toEqual({
      topic: 'the demo',
      scheduled: true,
      day: '2026-05-04',
      minutes: 45,
      online: false,
      notes: 'Bring the <b>plan</b>',
    });
    await form().waitFor({ state: 'detached' });
  });

  it('refuses an empty required field in the page, and hears Decline', async () => {
    await column().locator('[data-action="schedule"]').click();
    await form().waitFor({ timeout: budget(20_000) });
    await form().getByLabel('Day').focus();
    await page.keyboard.press('Enter');
    // The browser kept the form: nothing was sent, the call still waits.
    expect(
      await form()
        .getByLabel('Day')
        .evaluate((input: HTMLInputElement) => input.validity.valueMissing),
    ).toBe(true);
    expect(await column().locator('[data-role="result"]').getAttribute('data-state')).toBe('running');
    await form().getByRole('button', { name: 'Decline' }).click();
    const result = JSON.parse((await resultIn('ok')).replace(/^schedule_meeting → /, ''));
    expect(result).toEqual({ topic: 'the demo', scheduled: false, because: 'decline' });
    await form().waitFor({ state: 'detached' });
  });

  it('in the Worker column too: the run’s Durable Object waits, the form’s answer goes to POST /runs/:runId/asks/:askId', async () => {
    const worker = page.locator('[data-side="worker"]');
    const workerForm = worker.locator('[data-role="status"] form');
    await worker.locator('[data-action="schedule"]').click();
    await workerForm.waitFor({ timeout: budget(20_000) });
    await workerForm.getByLabel('Day').fill('2026-06-01');
    await workerForm.getByLabel('Length (minutes)').fill('30');
    await workerForm.getByRole('button', { name: 'Submit' }).click();
    const box = worker.locator('[data-role="result"][data-state="ok"]');
    await box.waitFor({ timeout: budget(20_000) });
    const result = JSON.parse(((await box.textContent()) ?? '').replace(/^schedule_meeting → /, ''));
    expect(result).toMatchObject({ topic: 'the demo', scheduled: true, day: '2026-06-01', minutes: 30 });
    await workerForm.waitFor({ state: 'detached' });
  });
});
