import { createRuntime, defineTool } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { countSteps } from '../example/index.js';
import { callJson } from '../test-utils/server.js';
import { httpDoor } from './doors.js';
import { RunLog } from './run-log.js';
import { RunState } from './run-state.js';
import { createMemoryRunStorage } from './run-storage.js';

const identity = { tenant: 't', principal: 'p' };

// What a run holds must not grow with the number of calls it has served: `pnpm load` drives
// thousands of calls through a handful of runs, and any per-call leftover would add up there.
describe('RunState retention', () => {
  it('after many streamed calls, holds no reader, no call in flight and only the last maxEvents events', async () => {
    const storage = createMemoryRunStorage();
    const maxEvents = 50;
    const state = new RunState(
      createRuntime({ tools: [countSteps] }).withDoor(httpDoor),
      new RunLog(storage, maxEvents),
      { heartbeatMs: 0 },
    );
    expect(state.start({ runId: 'run_retention', identity }).ok).toBe(true);
    const calls = 120;
    for (let i = 0; i < calls; i++) {
      const call = { tool: 'count_steps', args: { steps: 3, delayMs: 0 }, toolCallId: `call_${i}` };
      const reply = await state.streamCall(identity, call);
      if (!reply.ok) throw new Error(reply.error.message);
      expect(await new Response(reply.value).text()).toContain('event: result');
    }
    expect(state.readers).toBe(0);
    expect(state.working().length > 0).toBe(false);
    const kept = [...storage.list({ prefix: 'e:' })];
    expect(kept).toHaveLength(maxEvents);
    // run.started, then started + 3 progress + finished per call.
    expect(kept.at(-1)?.[1]).toMatchObject({ seq: 1 + calls * 5 });
  });

  it('a reader of the run stream that leaves is dropped, and one that stays sees run.finished and is let go', async () => {
    const state = new RunState(
      createRuntime({ tools: [countSteps] }).withDoor(httpDoor),
      new RunLog(createMemoryRunStorage(), 100),
      { heartbeatMs: 0 },
    );
    state.start({ runId: 'run_readers', identity });
    const leaving = await state.events(identity, 0);
    const staying = await state.events(identity, 0);
    if (!leaving.ok || !staying.ok) throw new Error('no stream');
    expect(state.readers).toBe(2);
    await leaving.value.cancel();
    await callJson(state, identity, {
      tool: 'count_steps',
      args: { steps: 1, delayMs: 0 },
      toolCallId: 'c1',
    });
    expect(state.readers).toBe(1);
    const text = new Response(staying.value).text();
    await state.end(identity);
    expect(await text).toContain('event: run.finished');
    expect(state.readers).toBe(0);
  });
});

describe('RunState: a server failure after the answer began', () => {
  it('still ends the streamed answer with a ToolResult (internal, retryable), in JSON and SSE', async () => {
    const real = createRuntime({ tools: [countSteps] }).withDoor(httpDoor);
    const bind = <T extends object>(target: T, key: string | symbol) => {
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    };
    // The run's call rejects, as it would if the object's storage failed under it.
    const failing = new Proxy(real, {
      get: (target, key) =>
        key === 'startRun'
          ? (options: Parameters<typeof real.startRun>[0]) =>
              new Proxy(target.startRun(options), {
                get: (run, name) =>
                  name === 'call' ? () => Promise.reject(new Error('storage failed')) : bind(run, name),
              })
          : bind(target, key),
    });
    const state = new RunState(failing, new RunLog(createMemoryRunStorage(), 50), { heartbeatMs: 0 });
    expect(state.start({ runId: 'run_failing', identity }).ok).toBe(true);
    const call = { tool: 'count_steps', args: { steps: 1, delayMs: 0 } };
    const json = await state.streamCall(identity, { ...call, toolCallId: 'json' }, 'json');
    if (!json.ok) throw new Error(json.error.message);
    expect(JSON.parse(await new Response(json.value).text())).toMatchObject({
      ok: false,
      error: { kind: 'internal', retryable: true },
    });
    const sse = await state.streamCall(identity, { ...call, toolCallId: 'sse' }, 'sse');
    if (!sse.ok) throw new Error(sse.error.message);
    expect(await new Response(sse.value).text()).toMatch(
      /event: result\ndata: \{"ok":false,"error":\{"kind":"internal"/,
    );
  });
});

describe('RunState: how a JSON call is answered', () => {
  const add = defineTool({
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => ({ sum: a + b }),
  });
  const state = new RunState(
    createRuntime({ tools: [add, countSteps] }).withDoor(httpDoor),
    new RunLog(createMemoryRunStorage(), 100),
    { heartbeatMs: 5 },
  );
  state.start({ runId: 'run_json', identity });

  it('a call that only computes is answered as its JSON text, with no stream to pay for', async () => {
    const reply = await state.streamCall(
      identity,
      { tool: 'add', args: { a: 1, b: 2 }, toolCallId: 'quick' },
      'json',
    );
    if (!reply.ok) throw new Error(reply.error.message);
    expect(typeof reply.value).toBe('string');
    expect(JSON.parse(reply.value as string)).toMatchObject({ ok: true, value: { sum: 3 } });
    expect(state.working().length > 0).toBe(false);
  });

  it('a call that waits on a timer is streamed: heartbeats first, then the result, and its reader leaving cancels it', async () => {
    const reply = await state.streamCall(
      identity,
      { tool: 'count_steps', args: { steps: 2, delayMs: 30 }, toolCallId: 'slow' },
      'json',
    );
    if (!reply.ok || typeof reply.value === 'string') throw new Error('expected a stream');
    const text = await new Response(reply.value).text();
    expect(text).toMatch(/^\n+\{"ok":true/);
    const leaving = await state.streamCall(
      identity,
      { tool: 'count_steps', args: { steps: 50, delayMs: 50 }, toolCallId: 'left' },
      'json',
    );
    if (!leaving.ok || typeof leaving.value === 'string') throw new Error('expected a stream');
    expect(state.working().length > 0).toBe(true);
    await leaving.value.cancel();
    await expect.poll(() => state.working().length > 0).toBe(false);
  });
});

describe('RunState storage work per call', () => {
  it('a call of a run whose log is full reads storage once (its twin check), writes its two events, two trims and its record; one whose id the door made, no read', async () => {
    const inner = createMemoryRunStorage();
    const ops: string[] = [];
    const storage: typeof inner = {
      get(key) {
        ops.push(`get ${key}`);
        return inner.get(key);
      },
      put(key, value) {
        ops.push(`put ${key}`);
        inner.put(key, value);
      },
      delete(key) {
        ops.push(`delete ${key}`);
        return inner.delete(key);
      },
      list(options) {
        ops.push('list');
        return inner.list(options);
      },
    };
    const add = defineTool({
      name: 'add',
      description: 'Adds.',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => ({ sum: a + b }),
    });
    const state = new RunState(createRuntime({ tools: [add] }).withDoor(httpDoor), new RunLog(storage, 4), {
      heartbeatMs: 0,
    });
    state.start({ runId: 'run_ops', identity });
    const call = async (toolCallId: string, b: number, newId?: boolean) => {
      ops.length = 0;
      const reply = await state.streamCall(
        identity,
        { tool: 'add', args: { a: 1, b }, toolCallId, newId },
        'json',
      );
      if (!reply.ok) return reply;
      expect(JSON.parse(reply.value as string)).toMatchObject({ ok: true, value: { sum: 1 + b } });
      return reply;
    };
    for (let i = 1; i <= 4; i++) await call(`c${i}`, i);
    expect(ops).toEqual([
      'get c:c4',
      'put e:000000000000008',
      'delete e:000000000000004',
      'put e:000000000000009',
      'delete e:000000000000005',
      'put c:c4',
    ]);
    // The check that read nothing the second time still finds a twin once the call is filed.
    expect(await call('c4', 1)).toMatchObject({ ok: false, status: 409 });
    await call('call_made', 5, true);
    expect(ops).toEqual([
      'put e:000000000000010',
      'delete e:000000000000006',
      'put e:000000000000011',
      'delete e:000000000000007',
      'put c:call_made',
    ]);
  });
});

describe('RunState.nextCallStatus', () => {
  it('answers who waits as soon as the host forgets the run (its storage deleted), not at their deadline', async () => {
    const sleep = defineTool({
      name: 'sleep',
      description: 'Sleeps until cancelled.',
      inputSchema: z.object({}),
      execute: (_args, ctx) =>
        new Promise((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
        ),
    });
    const storage = createMemoryRunStorage();
    const state = new RunState(createRuntime({ tools: [sleep] }).withDoor(httpDoor), new RunLog(storage, 50));
    expect(state.start({ runId: 'run_forgotten', identity }).ok).toBe(true);
    const handle = await state.startCall(identity, { tool: 'sleep', args: {}, toolCallId: 'z' });
    if (!handle.ok) throw new Error(handle.error.message);
    const waiting = state.nextCallStatus(identity, 'z', handle.value, 60_000);
    for (const [key] of [...storage.list({})]) storage.delete(key);
    state.forget();
    const late = new Promise((resolve) => setTimeout(() => resolve('still waiting after 2 s'), 2_000));
    expect(await Promise.race([waiting, late])).toMatchObject({ ok: false, status: 404 });
  });
});
