// What `pnpm load` checks and counts: one call's SSE stream, a run's event log, and the figures
// computed from samples (least-squares slopes, percentiles).
// The door's own SSE reader, from core's build (`pnpm build` makes it).
import { parseSse } from '../../packages/core/dist/sse/index.js';

export { parseSse };

/** Events a call of `count_steps` with `steps` adds to its run's log: started, each step, finished. */
export const eventsPerCall = (steps) => steps + 2;

/** Problems with one `count_steps` call's SSE stream, or [] when it is whole. */
export function checkCall(text, steps) {
  const messages = parseSse(text);
  const problems = [];
  const events = messages.filter((m) => m.event !== 'result').map((m) => JSON.parse(m.data));
  const results = messages.filter((m) => m.event === 'result');
  if (results.length !== 1) problems.push(`${results.length} results`);
  else if (!JSON.parse(results[0].data).ok) problems.push(`failed: ${results[0].data}`);
  for (let i = 1; i < events.length; i++) {
    if (events[i].seq <= events[i - 1].seq) problems.push(`seq ${events[i].seq} after ${events[i - 1].seq}`);
  }
  const progress = events.filter((e) => e.type === 'tool.progress').map((e) => e.data.n);
  if (progress.join() !== Array.from({ length: steps }, (_, i) => i + 1).join()) {
    problems.push(`progress n ${progress.join()}`);
  }
  const types = events.map((e) => e.type);
  if (types[0] !== 'tool.started' || types.at(-1) !== 'tool.finished') problems.push(`types ${types.join()}`);
  return problems;
}

/**
 * Problems with a run's log as SSE messages (`id` is the seq): it must run without a gap or
 * repeat and end with run.finished at `expectedLast` (run.started, each call's events,
 * run.finished), or up to `slack` later.
 */
export function checkLog(runId, messages, expectedLast, slack = 0) {
  const problems = [];
  const seqs = messages.map((m) => Number(m.id));
  const last = seqs.at(-1);
  if (!(last >= expectedLast && last <= expectedLast + slack) || messages.at(-1)?.event !== 'run.finished')
    problems.push(
      `${runId}: log ends at ${messages.at(-1)?.event} ${last}, expected run.finished ${expectedLast}${slack ? ` to ${expectedLast + slack}` : ''}`,
    );
  seqs.forEach((seq, i) => {
    if (i > 0 && seq !== seqs[i - 1] + 1) problems.push(`${runId}: seq ${seq} follows ${seqs[i - 1]}`);
  });
  return problems;
}

/** Least-squares slope of `key` over `calls`, per call; 0 with fewer than 2 distinct points. */
export function slope(samples, key) {
  const n = samples.length;
  const mx = samples.reduce((sum, s) => sum + s.calls, 0) / n;
  const my = samples.reduce((sum, s) => sum + s[key], 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const s of samples) {
    sxy += (s.calls - mx) * (s[key] - my);
    sxx += (s.calls - mx) ** 2;
  }
  return sxx === 0 ? 0 : sxy / sxx;
}

/** The `p`-th percentile (0–100) of `values` by nearest rank; NaN when there are none. */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
