// A client that hangs up a one-shot call (POST /calls, no run) aborts the tool, under
// `wrangler dev`: JSON and SSE calls alike. With no run there are no run events to watch, so the
// door suite's Worker serves it: its `door_probe` tool tells whether `door_wait_for_abort` saw
// its signal fire, and it runs in the same isolate as the call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../slowdown.js';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
import { edgeDir } from './example-worker.js';

let dev: WranglerDev;
beforeAll(async () => {
  dev = await startWranglerDev({ cwd: edgeDir, config: 'src/door-suite/wrangler.test.jsonc' });
});
afterAll(() => dev?.stop());

const call = (tool: string, args: unknown, init: RequestInit = {}) =>
  fetch(`${dev.url}/calls`, {
    ...init,
    method: 'POST',
    headers: { authorization: 'Bearer ana', 'content-type': 'application/json', ...init.headers },
    body: JSON.stringify({ tool, args }),
  });

async function probe(key: string): Promise<{ started: boolean; aborted: boolean }> {
  const result = (await (await call('door_probe', { key })).json()) as {
    ok: boolean;
    value: { started: boolean; aborted: boolean };
  };
  if (!result.ok) throw new Error(`door_probe failed: ${JSON.stringify(result)}`);
  return result.value;
}

/** Whether `check` holds within `timeoutMs` (a budget to start, scaled; a promised bound is not). */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe.each([
  ['JSON', 'application/json'],
  ['SSE', 'text/event-stream'],
])('a one-shot %s call whose client hangs up', (label, accept) => {
  // About 0.7 s on a quiet machine (a heartbeat write that fails finds it). The tool waits for its
  // signal forever, so any bound proves the cancel; 5 s leaves room for a busy 2-core machine,
  // where one run of the full test command took over 2 s.
  it('aborts the tool: its ctx.signal fires within 5 s of the hang-up', async () => {
    const key = `hang-up-${label}-${crypto.randomUUID()}`;
    const client = new AbortController();
    const headers = call('door_wait_for_abort', { key }, { signal: client.signal, headers: { accept } });
    const answer = headers.then((response) => response.text()).catch(() => 'aborted');
    expect(await until(async () => (await probe(key)).started, budget(10_000))).toBe(true);
    // The 200 is on the wire, so the clock below measures the hang-up, not a slow start.
    await headers;
    const hungUpAt = performance.now();
    client.abort();
    await answer;
    expect(await until(async () => (await probe(key)).aborted, 5000)).toBe(true);
    console.log(
      `one-shot ${label} call: hang-up to ctx.signal in ${Math.round(performance.now() - hungUpAt)} ms`,
    );
  });
});

it('a one-shot call answers plain JSON at once when the tool is quick', async () => {
  const response = await call('door_probe', { key: 'nothing-here' });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(response.headers.get('x-toolctx-call-id')).toMatch(/^call_/);
  expect(await response.json()).toMatchObject({ ok: true, value: { started: false, aborted: false } });
});
