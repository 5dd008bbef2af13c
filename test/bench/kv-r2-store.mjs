// (d) The KV+R2 artifact store in workerd against the same raw KV and R2 binding calls, put then
// get, and beside them those calls without the put's pending mark (see workerd-worker.mjs). Timed from Node, per request: workerd freezes
// Date.now() and performance.now() during CPU work (they move only across I/O), so a clock inside
// the Worker would miss the store's hashing of the bytes after the last read. Each request does
// `reps` put+get pairs to spread the loopback round trip; the two sides alternate request by
// request so they share the machine's load, and each request's artifacts are removed untimed.
import { median } from './measure.mjs';
import { headers } from './workerd.mjs';

async function msPerPutGet(url, which, size, reps) {
  const started = performance.now();
  const response = await fetch(`${url}/store?which=${which}&size=${size}&reps=${reps}`, {
    method: 'POST',
    headers,
  });
  const elapsed = performance.now() - started;
  if (response.status !== 204) throw new Error(`The ${which} side failed: ${await response.text()}`);
  await fetch(`${url}/store/clean`, { method: 'POST', headers });
  return elapsed / reps;
}

export async function kvR2Store(url, sizes) {
  const rows = [];
  for (const bytes of sizes) {
    const reps = bytes >= 1e7 ? 1 : bytes >= 1e6 ? 4 : 20;
    const requests = bytes >= 1e7 ? 9 : 15;
    const samples = { store: [], raw: [], plain: [] };
    for (let i = -1; i < requests; i++) {
      for (const which of ['store', 'raw', 'plain']) {
        const ms = await msPerPutGet(url, which, bytes, reps);
        if (i >= 0) samples[which].push(ms); // the first round is a warm-up
      }
    }
    rows.push({
      bytes,
      store: median(samples.store),
      raw: median(samples.raw),
      plain: median(samples.plain),
    });
  }
  return rows;
}
