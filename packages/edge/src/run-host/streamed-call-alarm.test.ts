import { runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { tokenFor } from '../test-utils/worker.js';

// A JSON call answers before it ends (its body is streamed), so the idle alarm is re-armed when
// the call settles, not when the reply is sent. Through the deployable Worker (idleMs 15 min).
async function send(path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${await tokenFor('alarm-ana')}`);
  headers.set('content-type', 'application/json');
  return exports.default.fetch(new Request(`http://toolctx.test${path}`, { ...init, headers }));
}

it('a streamed JSON call re-arms the idle alarm when it settles', async () => {
  const { runId } = (await (await send('/runs', { method: 'POST', body: '{}' })).json()) as { runId: string };
  const host = env.RUNS.get(env.RUNS.idFromName(runId));
  const response = await send(`/runs/${runId}/calls`, {
    method: 'POST',
    body: JSON.stringify({ tool: 'slow_wait', args: { ms: 400 } }),
  });
  expect(response.status).toBe(200);
  // While the call runs, pull the alarm close, as if the run had been idle for most of idleMs.
  const soon = Date.now() + 5000;
  await runInDurableObject(host, async (object, state) => {
    await state.storage.setAlarm(soon);
    (object as unknown as { alarmAt: number }).alarmAt = soon;
  });
  expect(await response.json()).toMatchObject({ ok: true });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const alarm = await runInDurableObject(host, (_object, state) => state.storage.getAlarm());
  expect(alarm).toBeGreaterThan(Date.now() + 14 * 60_000);
});
