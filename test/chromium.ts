import { playwright } from '@vitest/browser-playwright';
import { chromiumArgs, chromiumPath } from '../packages/browser/scripts/chromium.mjs';

export { chromiumArgs, chromiumPath };

/** The vitest browser settings every Chromium project uses. */
export const chromiumBrowser = {
  enabled: true,
  headless: true,
  provider: playwright({ launchOptions: { executablePath: chromiumPath, args: chromiumArgs } }),
  instances: [{ browser: 'chromium' as const }],
  screenshotFailures: false,
};
