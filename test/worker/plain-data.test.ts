// Event data a run's log must keep however it looks. Progress and custom events carry plain data
// (what structured clone keeps), which is not always JSON: a bigint, a Map, a Set, a cycle; and a
// report can be bigger than the 2 MB a Durable Object keeps in one value. Under `wrangler dev`,
// the door suite's Worker (runs in Durable Objects) streams them as JSON in a call's answer, keeps
// them in the run's log, and its event stream replays them the same way after a restart.
import type { ToolEvent } from '@toolctx/core';
import { readSse } from '@toolctx/core/sse';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
import { edgeDir } from './example-worker.js';
import { eventsUntil } from './sse-events.js';

let dev: WranglerDev;
beforeAll(async () => {
  dev = await startWranglerDev({ cwd: edgeDir, config: 'src/door-suite/wrangler.test.jsonc' });
});
afterAll(() => dev?.stop());

const send = (path: string, init: RequestInit = {}) =>
  fetch(`${dev.url}${path}`, {
    ...init,
    headers: {
      authorization: 'Bearer ana',
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...init.headers,
    },
  });
const post = (path: string, body: unknown) => send(path, { method: 'POST', body: JSON.stringify(body) });

/** A call's SSE answer: its events, then its result. */
async function streamed(response: Response): Promise<{ events: ToolEvent[]; result: unknown }> {
  expect(response.status).toBe(200);
  const events: ToolEvent[] = [];
  let result: unknown;
  for await (const message of readSse(response.body!)) {
    if (message.event === 'result') result = JSON.parse(message.data);
    else events.push(JSON.parse(message.data) as ToolEvent);
  }
  return { events, result };
}

const callEvents = ['tool.started', 'tool.progress', 'custom.looped', 'tool.finished'];
const payload = { message: 'sizes', big: '1180591620717411303424', map: { a: 1 }, set: [1] };
const loop = { name: 'loop', self: '[cycle]' };

const callOf = (events: ToolEvent[]) => events.filter((event) => !event.type.startsWith('run.'));

function expectPlain(events: ToolEvent[]): void {
  const call = callOf(events);
  expect(call.map((event) => event.type)).toEqual(callEvents);
  expect(call[1]!.data).toMatchObject({ payload });
  expect(call[2]!.data).toEqual({ loop, again: loop });
}

/**
 * Calls `tool` in a new run (its answer streamed), restarts the Worker, then reads the run's event
 * stream from the start until the call's end. The replay must be the same events from the log, not
 * new ones: their seqs are the ones the call streamed.
 */
async function callThenReplay(tool: string) {
  const started = await send('/runs', {
    method: 'POST',
    body: '{}',
    headers: { accept: 'application/json' },
  });
  const { runId } = (await started.json()) as { runId: string };
  const { events, result } = await streamed(await post(`/runs/${runId}/calls`, { tool, args: {} }));
  await dev.restart();
  const replayed = await eventsUntil(await send(`/runs/${runId}/events`), (seen) =>
    seen.some((event) => event.type === 'tool.finished'),
  );
  const seqs = (list: ToolEvent[]) => callOf(list).map((event) => event.seq);
  expect(seqs(replayed)).toEqual(seqs(events));
  return { events, result, replayed };
}

it('a call in a run streams them as JSON, and the run replays them the same way after a restart', async () => {
  const { events, result, replayed } = await callThenReplay('door_plain_data');
  expectPlain(events);
  expect(result).toMatchObject({ ok: true, value: { reported: true } });
  expectPlain(replayed);
});

it('a one-shot call (POST /calls) streams them the same way', async () => {
  const { events, result } = await streamed(await post('/calls', { tool: 'door_plain_data', args: {} }));
  expectPlain(events);
  expect(result).toMatchObject({ ok: true, value: { reported: true } });
});

it('a progress report of 3 MiB streams whole, and the run keeps it and the report after it through a restart', async () => {
  const { events, result, replayed } = await callThenReplay('door_big_progress');
  expect(result).toMatchObject({ ok: true, value: { reported: true } });
  const reports = (list: ToolEvent[]) =>
    list
      .filter((event) => event.type === 'tool.progress')
      .map((event) => (event.data as { payload: { message: string; text?: string } }).payload);
  // door_big_progress reports 3 MiB of x, then that it is done.
  const expected = [{ message: 'page', text: 'x'.repeat(3 * 1024 * 1024) }, { message: 'done' }];
  expect(reports(events)).toEqual(expected);
  expect(reports(replayed)).toEqual(expected);
});

it('data nested 3,000 deep is refused, and the run goes on: its stream replays after a restart, it takes another call and it ends', async () => {
  const { events, result, replayed } = await callThenReplay('door_deep_report');
  expect(result).toMatchObject({ ok: true, value: { reported: true } });
  const callTypes = (list: ToolEvent[]) => callOf(list).map((event) => event.type);
  const expected = [
    'tool.started',
    'tool.report_rejected',
    'tool.report_rejected',
    'tool.progress',
    'tool.finished',
  ];
  expect(callTypes(events)).toEqual(expected);
  expect(callTypes(replayed)).toEqual(expected);
  const runId = events[0]!.runId!;
  const again = await streamed(await post(`/runs/${runId}/calls`, { tool: 'door_plain_data', args: {} }));
  expect(again.result).toMatchObject({ ok: true, value: { reported: true } });
  const ended = await send(`/runs/${runId}`, { method: 'DELETE', headers: { accept: 'application/json' } });
  expect(ended.status).toBe(200);
});
