// The scene each framework's app plays in headless Chromium: a call waits for approval, the
// widget is unmounted and mounted again by the app's own toggle, Approve and Deny are still there,
// and Approve settles the call.
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { chromiumArgs, chromiumPath } from '../chromium.js';
import { budget } from '../slowdown.js';

const output = fileURLToPath(new URL('./output/', import.meta.url));

/** The page an app serves for the scene: `#root`, its script, and no favicon request. */
export const scenePage = (title: string, script: string): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${title}</title></head>
<body><div id="root"></div><script type="module" src="${script}"></script></body></html>
`;

/** Opens `url` in a fresh page of `browser` (launched on first use), collecting what it reports as errors. */
export async function openPage(
  browser: { current?: Browser },
  url: string,
): Promise<{ page: Page; errors: string[] }> {
  browser.current ??= await chromium.launch({
    executablePath: chromiumPath,
    args: chromiumArgs,
    headless: true,
  });
  const page = await browser.current.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);
  return { page, errors };
}

/**
 * Plays the scene on a page whose app waits on `publish_note` with args `{ text: 'Hello from <framework>' }`
 * and passes `options.actions.details`; saves a screenshot after the remount as `output/<name>.png`.
 */
export async function playRemountScene(page: Page, framework: string, name: string): Promise<void> {
  const approve = page.getByRole('button', { name: 'Approve publish_note' });
  const deny = page.getByRole('button', { name: 'Deny publish_note' });
  // What the app's `options.actions.details` says: the options object arrived as a property.
  const asked = page.getByText(`Publish a note: text “Hello from ${framework}”`);
  const summary = page.locator('toolctx-status [part~="summary"]');
  const patience = { timeout: budget(20_000) };
  await expect.poll(() => approve.isVisible(), patience).toBe(true);
  expect(await deny.isVisible()).toBe(true);
  expect(await asked.isVisible()).toBe(true);
  // The run and the options were set as properties: neither is an attribute.
  expect(await page.locator('toolctx-status').evaluate((element) => element.getAttributeNames())).toEqual([]);

  await page.getByRole('button', { name: 'Hide status' }).click();
  await expect.poll(() => page.locator('toolctx-status').count(), patience).toBe(0);
  await page.getByRole('button', { name: 'Show status' }).click();
  await expect.poll(() => approve.isVisible(), patience).toBe(true);
  expect(await deny.isVisible()).toBe(true);
  expect(await asked.isVisible()).toBe(true);
  await mkdir(output, { recursive: true });
  await page.screenshot({ path: `${output}${name}.png` });

  expect(await summary.textContent()).toBe('1 waiting · 0 of 1 done');
  await approve.click();
  await expect.poll(() => summary.textContent(), patience).toBe('1 of 1 done');
  expect(await approve.count()).toBe(0);
}
