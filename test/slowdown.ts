// How long the tests are willing to wait for a condition, scaled to the machine: `npm test` on two
// busy cores starts wrangler dev, Chromium and workerd several times slower than an idle laptop
// does. Only waits scale; what a test asserts (including a promised upper bound) does not.
import { availableParallelism, loadavg } from 'node:os';

/**
 * The factor every budget is multiplied by: `TOOLCTX_TEST_SLOWDOWN` when set (CI, or a person who
 * knows their machine), else measured from the load on this machine when the tests start, 1 to 4.
 */
export const slowdown = readSlowdown();

function readSlowdown(): number {
  const set = Number(process.env.TOOLCTX_TEST_SLOWDOWN);
  if (Number.isFinite(set) && set > 0) return set;
  // Load per core: 1 is a full machine, every runnable process beyond that shares a core.
  const perCore = loadavg()[0]! / availableParallelism();
  return Math.min(4, Math.max(1, Math.round((0.5 + perCore) * 2) / 2));
}

/** `ms` as a budget on this machine: never shorter than given. */
export const budget = (ms: number): number => Math.round(ms * slowdown);

/** What {@link waitUntil} waits for, and what to say if it never comes. */
export interface WaitOptions {
  /** The condition, in words: the failure message starts with it. */
  what: string;
  /** The budget before scaling, in ms. */
  ms: number;
  /** How often to look, in ms. Default 100. */
  every?: number;
  /** Whatever explains a slow start (a process's output), added to the failure message. */
  output?: () => string;
}

/**
 * Looks at `check` until it returns something other than `undefined` or `false`, and returns
 * that; after the scaled budget fails with what it waited for, how long, the last error `check`
 * threw, and `output`.
 */
export async function waitUntil<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  options: WaitOptions,
): Promise<T> {
  const limit = budget(options.ms);
  const started = performance.now();
  let lastError: unknown;
  while (performance.now() - started < limit) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, options.every ?? 100));
  }
  throw new Error(slowStart(options.what, performance.now() - started, lastError, options.output?.()));
}

/** The failure message of a wait that ran out: what, how long, why not, and what was printed. */
export function slowStart(what: string, elapsedMs: number, lastError?: unknown, output?: string): string {
  const lines = [
    `Waited ${(elapsedMs / 1000).toFixed(1)} s for ${what} (${scaling()}).`,
    ...(lastError === undefined ? [] : [`Last attempt: ${String(lastError)}`]),
    ...(output === undefined ? [] : [`Output so far:\n${output.trim() || '(nothing)'}`]),
  ];
  return lines.join('\n');
}

const scaling = () =>
  process.env.TOOLCTX_TEST_SLOWDOWN
    ? `budgets ×${slowdown} by TOOLCTX_TEST_SLOWDOWN`
    : `budgets ×${slowdown} for this machine's load; TOOLCTX_TEST_SLOWDOWN=3 gives more`;
