import { copyFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';

/**
 * Every image in docs/, each the screenshot of one scene of an e2e suite, taken right after the
 * suite asserted what it depicts: these of the demo's (demo-agent.test.ts, shown in README.md and docs/guides/live-status.md),
 * and {@link widgetImages} (reload-after-crash.test.ts, demo-ask.test.ts). `pnpm docs:images` runs those suites with `TOOLCTX_DOCS_IMAGES=1`,
 * which writes them into docs/; a plain run writes only e2e/output.
 */
export const docsImages = {
  'demo.png': 'The toolctx demo: the scripted agent paused for approval on the Worker',
  'demo-phone.png': 'The Worker column on a phone, the agent paused for approval',
  'demo-approval.png': 'A call waiting for approval, with Approve and Deny on its own line',
  'demo-running.png': 'Calls running: one with its progress bar, one gone quiet with a stall note',
  'demo-summary.png': 'The finished calls unfolded, each with its outcome and duration',
  'demo-dark.png': 'The demo in the dark scheme',
} as const;
/** The status widget's images, each drawn by a suite of its own and shown in packages/browser/README.md. */
export const widgetImages = {
  'ask-form.png':
    'A call whose tool asks its user: the form on its status line, with a label on each field, Submit, Decline and Cancel',
  'status-after-reload.png':
    'The widget on a new page after a reload and a crash of the Worker: a call waiting for approval with Approve and Deny, a count run again to its end, and a wait cut off by the restart',
} as const;
export type DocsImage = keyof typeof docsImages | keyof typeof widgetImages;

export const docsDir = fileURLToPath(new URL('../../docs/', import.meta.url));
const output = fileURLToPath(new URL('./output/', import.meta.url));
const writesDocs = process.env.TOOLCTX_DOCS_IMAGES === '1';
/** The docs images this run wrote, so the suite can check it wrote them all. */
export const written = new Set<DocsImage>();

/** A screenshot of `target` (the page, or one element) into e2e/output, and into docs/ as `image` when asked. */
export async function shootScene(target: Page | Locator, name: string, image?: DocsImage): Promise<void> {
  const path = `${output}${name}.png`;
  await ('goto' in target ? target.screenshot({ path, fullPage: true }) : target.screenshot({ path }));
  if (!image || !writesDocs) return;
  await copyFile(path, `${docsDir}${image}`);
  written.add(image);
}

export { writesDocs };
