// The calls-per-run limit, under load: one run of its own holds `maxCallsPerRun` (default 16)
// slow calls at once, then asks for one more, which must be a 429 `limit-exceeded` with
// `Retry-After`, while the level's other runs carry on (their errors are counted apart). DELETE
// then ends the run, and each held call must still answer 200 with its outcome (aborted).
import { readSse } from '../../packages/core/dist/sse/index.js';

const json = { 'content-type': 'application/json' };

export async function limitProbe(options, maxCalls = 16) {
  try {
    return await probe(options, maxCalls);
  } catch (error) {
    return { problems: [`limit probe: ${error.message}`] };
  }
}

async function probe({ base, headersAs }, maxCalls) {
  const headers = headersAs('load-limit');
  const problems = [];
  const created = await fetch(`${base}/runs`, {
    method: 'POST',
    headers: { ...headers, ...json },
    body: '{}',
  });
  const { runId } = await created.json();
  const events = await fetch(`${base}/runs/${runId}/events`, {
    headers,
    signal: AbortSignal.timeout(120_000),
  });
  const call = () =>
    fetch(`${base}/runs/${runId}/calls`, {
      method: 'POST',
      headers: { ...headers, ...json },
      body: JSON.stringify({ tool: 'slow_wait', args: { ms: 60_000 } }),
    });
  const held = Array.from({ length: maxCalls }, call);
  // Wait until every held call has started, as the run's own log says; the reader goes on to
  // the log's end (a reader that hangs up is a failed write workerd logs as an error).
  let allStarted;
  const everyStarted = new Promise((resolve) => (allStarted = resolve));
  const readToEnd = (async () => {
    let running = 0;
    for await (const message of readSse(events.body)) {
      if (message.event === 'tool.started' && ++running === maxCalls) allStarted();
    }
  })();
  await Promise.race([everyStarted, readToEnd]);
  const extra = await call();
  const refusal = await extra.json();
  const retryAfter = extra.headers.get('retry-after');
  if (extra.status !== 429 || refusal.kind !== 'limit-exceeded' || !retryAfter)
    problems.push(
      `call ${maxCalls + 1}: ${extra.status} ${JSON.stringify(refusal).slice(0, 200)}, Retry-After ${retryAfter}`,
    );
  await (await fetch(`${base}/runs/${runId}`, { method: 'DELETE', headers })).text();
  await readToEnd;
  for (const response of await Promise.all(held)) {
    const result = JSON.parse(await response.text());
    if (response.status !== 200 || result.ok !== false)
      problems.push(`held call: ${response.status} ${JSON.stringify(result).slice(0, 200)}`);
  }
  return { status: extra.status, retryAfter, problems };
}
