import { createRuntime, defineTool } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryRunDirectory, createToolServer } from '../index.js';
import { allMessages, eventsOf } from '../test-utils/sse.js';

// Progress and custom events are plain data (structured-clone safe), which JSON does not always
// hold: a bigint, a Map, a Set, a cycle. The door writes them as JSON rather than losing the event.
const oddData = defineTool({
  name: 'odd_data',
  description: 'Reports plain data that is not JSON.',
  inputSchema: z.object({}),
  execute: (_args, ctx) => {
    ctx.progress({ message: 'sizes', big: 2n ** 70n, map: new Map([['a', 1]]), set: new Set([1]) });
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    ctx.emit('looped', { loop, again: loop });
    return 'done';
  },
});

const identity = { tenant: 'acme', principal: 'ana' };
function server() {
  const runtime = createRuntime({ tools: [oddData] });
  const runs = createMemoryRunDirectory({ runtime });
  const app = createToolServer({ runtimeFor: () => runtime, runs, authenticate: () => identity });
  const post = (path: string, body: unknown, accept = 'text/event-stream') =>
    app.request(path, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', accept },
    });
  return { app, post };
}

/** The events of one odd_data call, in order. */
const callEvents = ['tool.started', 'tool.progress', 'custom.looped', 'tool.finished'];
const progressData = { message: 'sizes', big: '1180591620717411303424', map: { a: 1 }, set: [1] };
const loopData = { loop: { name: 'loop', self: '[cycle]' }, again: { name: 'loop', self: '[cycle]' } };

describe('HTTP door: event data that is plain but not JSON', () => {
  it('a streamed call writes a bigint as its digits, a Map as an object, a Set as an array and a cycle as "[cycle]", and the stream goes on to its result', async () => {
    const { post } = server();
    const runId = ((await (await post('/runs', {}, 'application/json')).json()) as { runId: string }).runId;
    const call = await post(`/runs/${runId}/calls`, { tool: 'odd_data', args: {} });
    expect(call.status).toBe(200);
    const messages = await allMessages(call);
    const events = eventsOf(messages);
    expect(events.map((event) => event.type)).toEqual(callEvents);
    expect(events[1]!.data).toMatchObject({ payload: progressData });
    expect(events[2]!.data).toEqual(loopData);
    expect(JSON.parse(messages.at(-1)!.data)).toMatchObject({ ok: true, content: 'done' });
  });

  it("the run's event stream replays the same events from its log", async () => {
    const { app, post } = server();
    const runId = ((await (await post('/runs', {}, 'application/json')).json()) as { runId: string }).runId;
    await (await post(`/runs/${runId}/calls`, { tool: 'odd_data', args: {} }, 'application/json')).text();
    await app.request(`/runs/${runId}`, { method: 'DELETE' });
    const events = eventsOf(await allMessages(await app.request(`/runs/${runId}/events`)));
    expect(events.map((event) => event.type)).toEqual(['run.started', ...callEvents, 'run.finished']);
    expect(events[2]!.data).toMatchObject({ payload: progressData });
    expect(events[3]!.data).toEqual(loopData);
  });

  it('a one-shot streamed call writes them the same way', async () => {
    const { post } = server();
    const events = eventsOf(await allMessages(await post('/calls', { tool: 'odd_data', args: {} })));
    expect(events.map((event) => event.type)).toEqual(callEvents);
    expect(events[1]!.data).toMatchObject({ payload: progressData });
  });
});
