// Debian's Chromium, never a downloaded one, with the flags that keep it quiet on a closed network:
// one list for the browser package's tests, the cross-package tests (test/chromium.ts) and the
// benchmarks (test/bench/chromium.mjs).

/** The Chromium every test and benchmark launches; CHROMIUM_PATH overrides it. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Its command-line flags. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
