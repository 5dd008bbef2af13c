// Timing helpers shared by every benchmark: medians over repeats, after a warm-up, so one slow
// repeat on a shared machine does not decide the figure.

/** The median of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Runs `body(n)` (which does n operations) `repeats` times after one warm-up, and returns the
 * median nanoseconds per operation.
 */
export async function nsPerOp(body, { n = 20_000, repeats = 7 } = {}) {
  await body(Math.min(n, 2_000));
  await body(n);
  const samples = [];
  for (let r = 0; r < repeats; r++) {
    const started = process.hrtime.bigint();
    await body(n);
    samples.push(Number(process.hrtime.bigint() - started) / n);
  }
  return median(samples);
}

/**
 * Median milliseconds of each body over `repeats`, after `warmup` untimed rounds (one unless
 * told). The bodies take turns within every round, so a slow patch of a shared machine falls on
 * all of them alike; `before`, when given, runs untimed before each body. Runs in Node and in the
 * bench page alike.
 */
export async function interleaved(bodies, repeats, { warmup = 1, before } = {}) {
  const samples = Object.fromEntries(Object.keys(bodies).map((name) => [name, []]));
  for (let i = 0; i < warmup; i++) {
    for (const body of Object.values(bodies)) {
      await before?.();
      await body();
    }
  }
  for (let i = 0; i < repeats; i++) {
    for (const [name, body] of Object.entries(bodies)) {
      await before?.();
      const started = performance.now();
      await body();
      samples[name].push(performance.now() - started);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

export const us = (ns) => `${(ns / 1000).toFixed(3)} µs`;
export const perSecond = (ns) => `${formatCount(1e9 / ns)}/s`;
export function formatCount(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
  return n.toFixed(0);
}
