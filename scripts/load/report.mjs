// What `pnpm load` prints and writes: the table per concurrency level, the bounds it asserts
// (each named, with its figure), and its section of BENCHMARKS.md.
import { execSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const ms = (value) => `${value.toFixed(0)} ms`;
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/** Per level: its figures, and what its runs' objects held after the retention window. */
export function levelFigures(level, retained) {
  const after = level.runs.map((run) => retained.find((r) => r.runId === run.runId));
  return {
    ...level,
    afterBytes: { mean: mean(after.map((r) => r.bytes)), max: Math.max(...after.map((r) => r.bytes)) },
    gone: after.filter((r) => r.gone).length,
  };
}

/** The bounds issue 18 (filed as "issue 14") sets, each with its figure; `ok` false fails the run. */
export function bounds({ levels, floorBytes, window, memory, identities, fair }) {
  const [small, large] = window;
  const list = levels.flatMap((level) => [
    {
      name: `${level.concurrency} concurrent runs: no error (no 5xx, no 429 within the default limits, every stream and log whole)`,
      figure: `${level.problems.length} errors`,
      ok: level.problems.length === 0,
    },
    {
      name: `${level.concurrency} concurrent runs: one call past the calls-per-run limit (16) is a 429 limit-exceeded with Retry-After; the held calls still answer`,
      figure: level.limit.problems.length
        ? level.limit.problems.join('; ')
        : `${level.limit.status}, Retry-After ${level.limit.retryAfter} s`,
      ok: level.limit.problems.length === 0,
    },
    {
      name: `${level.concurrency} concurrent runs: each ended run's storage deleted after the retention window`,
      figure: `${level.gone} of ${level.runs.length} runs answer 404; largest object left ${level.afterBytes.max} B, empty database ${floorBytes} B`,
      ok: level.gone === level.runs.length && level.afterBytes.max <= floorBytes,
    },
  ]);
  list.push({
    name: "a run's storage levels off at its kept log (the last 1,000 events): 3× the events hold ≤ 1.1× the bytes",
    figure: `${large.events} events ${large.bytes} B, ${small.events} events ${small.bytes} B (${(large.bytes / small.bytes).toFixed(2)}×)`,
    ok: large.bytes <= 1.1 * small.bytes && [...small.problems, ...large.problems].length === 0,
  });
  list.push({
    name: `fair share: beside one identity flooding POST /calls (${fair.floodClients} clients, its limit 16 in flight), another identity's p50 stays within 3× its p50 alone`,
    figure: `alone p50 ${ms(fair.alone.p50)}, p99 ${ms(fair.alone.p99)}; flooded p50 ${ms(fair.flooded.p50)}, p99 ${ms(fair.flooded.p99)}; ${fair.ratio.p50.toFixed(2)}× p50, ${fair.ratio.p99.toFixed(2)}× p99`,
    ok: fair.ratio.p50 <= 3,
  });
  list.push({
    name: "fair share: every call of the quiet identity succeeds, and the flooding identity's calls past its limit are refused (429) while it is measured",
    figure: `${fair.quietProblems.length} errors; the flood ${fair.flood.admittedPerSecond.toFixed(1)} calls/s admitted, ${fair.flood.refusedPerSecond.toFixed(1)}/s refused`,
    ok: fair.quietProblems.length === 0 && fair.flood.refusedPerSecond > 0,
  });
  list.push({
    name: 'identities with no live run keep no counter: each holds no more than one never used',
    figure: `largest of ${identities.count} ${identities.largest} B, never used ${identities.neverUsed} B`,
    ok: identities.largest <= identities.neverUsed,
  });
  if (memory) {
    list.push({
      name: 'memory phase: no error (every stream and log whole)',
      figure: `${memory.problems.length} errors`,
      ok: memory.problems.length === 0,
    });
    list.push({ name: memory.verdict, figure: '', ok: memory.bounded });
  }
  return list;
}

export function printTable(levels, floorBytes) {
  const rows = [
    ['concurrency', 'calls', 'calls/s', 'p50', 'p99', 'DO storage/run, ended', 'after retention', 'errors'],
    ...levels.map((l) => [
      `${l.concurrency} runs`,
      String(l.calls),
      l.callsPerSecond.toFixed(0),
      ms(l.p50),
      ms(l.p99),
      `${kib(l.keptBytes.mean)} (max ${kib(l.keptBytes.max)})`,
      `${kib(l.afterBytes.mean)} (${l.gone}/${l.runs.length} gone)`,
      String(l.problems.length),
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
  console.log(`empty database (an object never written): ${kib(floorBytes)}`);
}

/** Rewrites the "## Scale" section of BENCHMARKS.md (the rest is `pnpm bench`'s). */
export function writeBenchmarks({
  levels,
  floorBytes,
  window,
  memory,
  identities,
  fair,
  settings,
  loadAtStart,
  list,
}) {
  const l16 = levels[0];
  const [small, large] = window;
  const verdict = (ok) => (ok ? 'met' : '**missed**');
  const boundOk = (start) => list.filter((b) => b.name.startsWith(start)).every((b) => b.ok);
  const rows = levels.map((l) => [
    `${l.concurrency} concurrent runs: calls, latency of one call (whole answer read)`,
    `${l.callsPerSecond.toFixed(0)} calls/s; p50 ${ms(l.p50)}, p99 ${ms(l.p99)}`,
    l === l16 ? '—' : `${l16.concurrency} runs: ${l16.callsPerSecond.toFixed(0)} calls/s, p99 ${ms(l16.p99)}`,
    `${l.calls} calls, ${l.problems.length} errors${l === l16 ? '' : `; ${(l.callsPerSecond / l16.callsPerSecond).toFixed(2)}× the ${l16.concurrency}-run rate`}`,
    'no error: no 5xx, no 429 within the default limits',
    verdict(l.problems.length === 0),
  ]);
  for (const l of levels)
    rows.push([
      `${l.concurrency} concurrent runs, beside them one run holding 16 calls: the 17th`,
      `${l.limit.status}, Retry-After ${l.limit.retryAfter} s`,
      '—',
      `the ${l.concurrency} runs: ${l.problems.length} errors`,
      '429 past `maxCallsPerRun`; nothing else affected',
      verdict(l.limit.problems.length === 0 && l.problems.length === 0),
    ]);
  rows.push([
    `one identity's calls one after another, beside another identity flooding \`POST /calls\` with ${fair.floodClients} clients (its limit: 16 in flight)`,
    `p50 ${ms(fair.flooded.p50)}, p99 ${ms(fair.flooded.p99)}`,
    `alone: p50 ${ms(fair.alone.p50)}, p99 ${ms(fair.alone.p99)}`,
    `${fair.ratio.p50.toFixed(2)}× p50, ${fair.ratio.p99.toFixed(2)}× p99 (medians of ${fair.rounds} rounds of ${fair.quietCount} calls); the flood ${fair.flood.admittedPerSecond.toFixed(1)} calls/s admitted, ${fair.flood.refusedPerSecond.toFixed(1)}/s refused with 429${fair.floodRetryMs === undefined ? ', each client waiting its Retry-After' : `, each client retrying ${fair.floodRetryMs} ms after a 429`}`,
    '≤ 3× p50; no error',
    verdict(boundOk('fair share:')),
  ]);
  for (const l of levels)
    rows.push([
      `${l.concurrency} concurrent runs: DO storage per run once its calls ended (kept for \`retentionMs\`)`,
      `${kib(l.keptBytes.mean)} (max ${kib(l.keptBytes.max)})`,
      `empty database ${kib(floorBytes)}`,
      `+${kib(l.keptBytes.mean - floorBytes)} for ${2 + (settings.steps + 2) * settings.callsPerRun} events`,
      '—',
      '—',
    ]);
  for (const l of levels)
    rows.push([
      `${l.concurrency} concurrent runs: DO storage per run after the retention window`,
      `${kib(l.afterBytes.mean)} (max ${kib(l.afterBytes.max)}); ${l.gone} of ${l.runs.length} runs answer 404`,
      `empty database ${kib(floorBytes)}`,
      `${(l.afterBytes.max / floorBytes).toFixed(2)}× of empty`,
      '≤ empty: deleted',
      verdict(boundOk(`${l.concurrency} concurrent runs: each`)),
    ]);
  rows.push([
    `one run's DO storage with ${large.events.toLocaleString('en')} events`,
    kib(large.bytes),
    `with ${small.events.toLocaleString('en')} events: ${kib(small.bytes)}`,
    `${(large.bytes / small.bytes).toFixed(2)}×`,
    '≤ 1.1× (the last 1,000 kept)',
    verdict(boundOk("a run's storage")),
  ]);
  rows.push([
    `the run counters of the ${identities.count} identities once their runs ended`,
    `largest ${kib(identities.largest)}`,
    `an identity never used: ${kib(identities.neverUsed)}`,
    `${(identities.largest / identities.neverUsed).toFixed(2)}×`,
    '≤ never used: nothing kept',
    verdict(boundOk('identities with no live run')),
  ]);
  if (memory) {
    const gc = memory.figures.workerdRuntimeAfterGc;
    rows.push([
      `${memory.figures.calls.toLocaleString('en')} SSE calls over ${settings.connections} runs: growth after a full GC, second half`,
      `live heap ${gc.heapSecondHalfKiBPerCall} KiB/call; RSS ${gc.rssSecondHalfKiBPerCall} KiB/call`,
      '—',
      `${memory.figures.callsPerSecond} calls/s; p50 ${memory.figures.latencyMs.p50} ms, p99 ${memory.figures.latencyMs.p99} ms`,
      `heap ≤ ${settings.heapBound}, RSS ≤ ${settings.rssBound} KiB/call`,
      verdict(memory.bounded && memory.problems.length === 0),
    ]);
  }
  const section = [
    '## Scale (`pnpm load`)',
    '',
    `Written by \`pnpm load\` (scripts/load.mjs) on ${new Date().toISOString().slice(0, 10)}, load average ${loadAtStart.toFixed(1)} at the start${loadAtStart > 2 ? ' (the machine was busy with other work, so absolute times are inflated)' : ''}. The example Worker under \`wrangler dev\` on loopback. Each run is one client: an event-stream reader, then ${settings.callsPerRun} \`count_steps\` calls (${settings.steps} steps) one after another, JSON and SSE by turns; half the runs end with DELETE, half by the idle alarm (idle ${settings.idleMs / 1000} s and retention ${settings.retentionMs / 1000} s here; defaults 15 min and a day). Storage is the run's Durable Object's \`ctx.storage.sql.databaseSize\`, the figure a SQLite-backed object's stored data is billed on; an object never written measures 8 KiB here (local workerd adds a table of its own to each object it opens), and deleted runs are measured beside one after a restart. Fair share: one identity's one-shot \`count_steps\` calls (5 steps, 2 ms apart) one after another, alone and then beside another identity whose ${fair.floodClients} clients call \`count_steps\` (20 steps, 25 ms apart, about half a second) in a loop; the limit caps calls in flight, not requests, so a client that ignored Retry-After would flood with refused requests instead (\`FLOOD_RETRY_MS=50\` measures that), which a rate limit in front of the Worker bounds.`,
    '',
    '| load | toolctx | baseline (same run) | result | goal | |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    '',
  ].join('\n');
  const file = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf('## Scale (`pnpm load`)');
  const next = start < 0 ? -1 : text.indexOf('\n## ', start + 1);
  const kept = start < 0 ? `${text.trimEnd()}\n\n` : text.slice(0, start);
  writeFileSync(file, `${kept}${section}${next < 0 ? '' : text.slice(next)}`);
  execSync(`pnpm exec biome format --write ${JSON.stringify(file)}`, { stdio: 'ignore' });
  return section;
}

export const loadNow = () => loadavg()[0];
