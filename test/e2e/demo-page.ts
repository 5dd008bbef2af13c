// Opens the demo in headless Chromium for an e2e suite: every Playwright wait given a budget that
// scales with the machine, and a page that is slow to come up diagnosed from what it and the
// Worker printed, not reported as a bare timeout.
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../chromium.js';
import { budget, slowStart } from '../slowdown.js';
import type { RunningDemo } from './demo-server.js';

/** The demo open in a browser, and what the page said so far. */
export interface OpenedDemo {
  browser: Browser;
  page: Page;
  /** Console warnings and errors, failed requests. */
  journal: string[];
}

/** Launches Chromium, opens a page with `options`, and records what the page says. */
export async function openBrowser(options: BrowserContextOptions): Promise<OpenedDemo> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: chromiumArgs,
    headless: true,
    timeout: budget(60_000),
  });
  const page = await (await browser.newContext(options)).newPage();
  // Playwright's 30 s default, scaled: a loaded machine draws the page and runs its Web Worker late.
  page.setDefaultTimeout(budget(30_000));
  page.setDefaultNavigationTimeout(budget(30_000));
  const journal: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error')
      journal.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => journal.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) =>
    journal.push(`failed ${request.method()} ${request.url()}: ${request.failure()?.errorText}`),
  );
  return { browser, page, journal };
}

/**
 * Waits until both columns show their run id (the page side's Web Worker and the Worker side's
 * run are up); if they do not in time, says which column, how long, and what the page and
 * `wrangler dev` printed.
 */
export async function columnsReady(opened: OpenedDemo, demo: RunningDemo): Promise<void> {
  const started = performance.now();
  for (const side of ['page', 'worker']) {
    try {
      await opened.page
        .locator(`[data-side="${side}"] [data-role="run-id"]`)
        .waitFor({ timeout: budget(60_000) });
    } catch (error) {
      const output = [
        'The page said:',
        ...(opened.journal.length ? opened.journal : ['(nothing)']),
        'wrangler dev printed:',
        demo.output(),
      ].join('\n');
      throw new Error(
        slowStart(
          `the ${side} column's run id at ${opened.page.url()}`,
          performance.now() - started,
          error,
          output,
        ),
      );
    }
  }
}
