import { playwright } from '@vitest/browser-playwright';

/** Debian's Chromium, never a downloaded one, with flags that keep it quiet on a closed network. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The vitest browser settings every Chromium project uses. */
export const chromiumBrowser = {
  enabled: true,
  headless: true,
  provider: playwright({ launchOptions: { executablePath: chromiumPath, args: chromiumArgs } }),
  instances: [{ browser: 'chromium' as const }],
  screenshotFailures: false,
};
