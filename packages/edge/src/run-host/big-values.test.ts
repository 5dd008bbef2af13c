import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { createRuntime, defineTool, type ToolEvent, type ToolResult } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { exampleTools } from '../example/index.js';
import { createToolServer } from '../http/create-tool-server.js';
import { callJson } from '../test-utils/server.js';
import { allMessages, eventsOf } from '../test-utils/sse.js';
import { hostOf } from '../test-utils/worker.js';
import { httpDoor } from './doors.js';
import { durableObjectRuns } from './durable-object-runs.js';
import { RunLog } from './run-log.js';
import { RunState } from './run-state.js';

// A Durable Object refuses a value over 2 MB (SQLITE_TOOBIG): a run keeps such a value in pieces
// (stored-values.ts). These use a run object's real storage, so the limit is the platform's, not
// a stand-in's. A host meets such values when it raises `maxBodyBytes`, or when a tool reports or
// calls with more.
const bigText = 'x'.repeat(3 * 1024 * 1024);
const tick = (seq: number): ToolEvent => ({ type: 'custom.tick', seq, ts: 0, data: { seq } });
const keysUnder = (storage: DurableObjectStorage, prefix: string) =>
  [...storage.kv.list({ prefix })].map(([key]) => key);
const eventKeys = (storage: DurableObjectStorage) => keysUnder(storage, 'e:');
const identity = { tenant: 't', principal: 'p' };

describe('the run log in Durable Object storage: an event too big for one value', () => {
  it('is kept as its JSON in pieces, and a restarted host replays it as sent, with the events around it', async () => {
    await runInDurableObject(hostOf('run_big_log'), (_host, state) => {
      const big: ToolEvent = {
        type: 'tool.progress',
        seq: 2,
        ts: 0,
        data: { tool: 'reader', payload: { text: bigText }, n: 1 },
      };
      const log = new RunLog(state.storage.kv, 100);
      log.append(tick(1));
      log.append(big);
      log.append(tick(3));
      const restarted = new RunLog(state.storage.kv, 100);
      expect(restarted.latest).toBe(3);
      expect(restarted.after(0)).toEqual([tick(1), big, tick(3)]);
      expect(restarted.after(1)).toEqual([big, tick(3)]);
      expect(restarted.after(2)).toEqual([tick(3)]);
      // Its first piece under its own key, the rest right after it, 256 Ki characters each.
      const pieces = Math.ceil(JSON.stringify(big).length / (256 * 1024)) - 1;
      expect(pieces).toBeGreaterThan(10);
      expect(eventKeys(state.storage).filter((key) => key.startsWith('e:000000000000002#'))).toHaveLength(
        pieces,
      );
    });
  });

  it('goes out of the kept window with all its pieces', async () => {
    await runInDurableObject(hostOf('run_big_trim'), (_host, state) => {
      const log = new RunLog(state.storage.kv, 2);
      log.append(tick(1));
      log.append({ ...tick(2), data: { text: bigText } });
      for (let seq = 3; seq <= 5; seq++) log.append(tick(seq));
      expect(eventKeys(state.storage)).toEqual(['e:000000000000004', 'e:000000000000005']);
      // The last event's key is the latest, however the one before it was kept.
      log.append({ ...tick(6), data: { text: bigText } });
      expect(new RunLog(state.storage.kv, 2).latest).toBe(6);
    });
  });

  it('from a tool: the run streams, keeps and replays it and every event after it, where its log used to stop at it', async () => {
    const reader = defineTool({
      name: 'reader',
      description: 'Reports a page of 3 MB, then that it is done.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => {
        ctx.progress({ message: 'page', text: bigText });
        ctx.progress({ message: 'done' });
        return 'read';
      },
    });
    await runInDurableObject(hostOf('run_big_tool'), async (_host, durable) => {
      const runtime = createRuntime({ tools: [reader] }).withDoor(httpDoor);
      // The live reader reads only once the run has ended, so it is megabytes behind: a bound
      // above that keeps it on (with the default 1 MiB it is dropped, and would resume).
      const state = new RunState(runtime, new RunLog(durable.storage.kv, 100), {
        heartbeatMs: 0,
        maxQueuedBytesPerStream: 16 * 1024 * 1024,
      });
      state.start({ runId: 'run_big_tool', identity });
      const live = await state.events(identity, 0);
      if (!live.ok) throw new Error(live.error.message);
      const result = await callJson(state, identity, { tool: 'reader', args: {}, toolCallId: 'call_big' });
      expect(result).toMatchObject({ ok: true, value: { ok: true, content: 'read' } });
      await state.end(identity);
      const types = [
        'run.started',
        'tool.started',
        'tool.progress',
        'tool.progress',
        'tool.finished',
        'run.finished',
      ];
      expect(eventsOf(await allMessages(new Response(live.value))).map((e) => e.type)).toEqual(types);
      // A host that starts again reads them all back from storage.
      const restarted = new RunState(runtime, new RunLog(durable.storage.kv, 100), { heartbeatMs: 0 });
      const stored = await restarted.events(identity, 0);
      if (!stored.ok) throw new Error(stored.error.message);
      const events = eventsOf(await allMessages(new Response(stored.value)));
      expect(events.map((e) => e.type)).toEqual(types);
      expect(events[2]!.data).toMatchObject({ payload: { message: 'page', text: bigText } });
    });
  });
});

describe('a run in Durable Object storage: a record or an approval too big for one value', () => {
  const reads = defineTool({
    name: 'reads_state',
    description: "Tells the length of the run state's text.",
    inputSchema: z.object({}),
    execute: (_args, ctx) => String((ctx.state.text as string).length),
  });

  it('a run started with 3 MB of state: it starts, and a restarted host has the run and its state whole', async () => {
    await runInDurableObject(hostOf('run_big_state'), async (_host, durable) => {
      const runtime = createRuntime({ tools: [reads] }).withDoor(httpDoor);
      const host = () => new RunState(runtime, new RunLog(durable.storage.kv, 100), { heartbeatMs: 0 });
      expect(host().start({ runId: 'run_big_state', identity, state: { text: bigText } }).ok).toBe(true);
      expect(keysUnder(durable.storage, 'run').length).toBeGreaterThan(10);
      const restarted = host();
      const answer = await callJson(restarted, identity, { tool: 'reads_state', args: {}, toolCallId: 'c1' });
      expect(answer).toMatchObject({ ok: true, value: { ok: true, content: String(bigText.length) } });
      // Ending rewrites the record: the pieces of the one before are not left behind.
      await restarted.end(identity);
      expect(host().record).toMatchObject({ ended: true, state: { text: bigText } });
      expect(keysUnder(durable.storage, 'run').length).toBe(keysUnder(durable.storage, 'run#').length + 1);
    });
  });

  it('a call that waits for approval with 3 MB of arguments: kept, counted once, and decided after a restart with its arguments whole', async () => {
    const uploaded: number[] = [];
    const upload = defineTool({
      name: 'upload',
      description: 'Uploads a page, after approval.',
      inputSchema: z.object({ text: z.string() }),
      effect: 'write',
      needsApproval: true,
      execute: ({ text }) => {
        uploaded.push(text.length);
        return 'uploaded';
      },
    });
    await runInDurableObject(hostOf('run_big_approval'), async (_host, durable) => {
      const runtime = createRuntime({
        tools: [upload],
        approval: { request: async () => 'pending' },
      }).withDoor(httpDoor);
      const host = () =>
        new RunState(runtime, new RunLog(durable.storage.kv, 100), {
          heartbeatMs: 0,
          maxPendingApprovalsPerRun: 2,
        });
      const first = host();
      first.start({ runId: 'run_big_approval', identity });
      const asked = await callJson(first, identity, {
        tool: 'upload',
        args: { text: bigText },
        toolCallId: 'big',
      });
      if (!asked.ok) throw new Error(asked.error.message);
      const pending = asked.value as ToolResult;
      if (pending.ok || pending.error.kind !== 'approval-pending')
        throw new Error('expected approval-pending');
      const approvalId = String(pending.error.details?.approvalId);
      expect(keysUnder(durable.storage, `a:${approvalId}#`).length).toBeGreaterThan(10);
      // The limit counts the approval once, not once per piece: a second call may still ask.
      const second = await callJson(first, identity, {
        tool: 'upload',
        args: { text: 'small' },
        toolCallId: 'small',
      });
      expect(second).toMatchObject({ ok: true, value: { ok: false, error: { kind: 'approval-pending' } } });

      const restarted = host();
      const decided = await restarted.streamResume(identity, approvalId, { approved: true }, 'json');
      if (!decided.ok) throw new Error(decided.error.message);
      expect(JSON.parse(await new Response(decided.value).text())).toMatchObject({
        ok: true,
        content: 'uploaded',
      });
      expect(uploaded).toEqual([bigText.length]);
      expect(keysUnder(durable.storage, `a:${approvalId}`)).toEqual([]);
    });
  });

  it('through the door of a host that takes bodies of 8 MiB: a run with 3 MB of state starts, its calls run, and it ends', async () => {
    // The Worker's runtime lists tools; the run objects (the example Worker's RUNS) run them.
    const runtime = createRuntime({ tools: exampleTools, approval: { request: async () => 'pending' } });
    const app = createToolServer({
      runtimeFor: () => runtime,
      runs: durableObjectRuns(env.RUNS),
      authenticate: () => identity,
      maxBodyBytes: 8 * 1024 * 1024,
    });
    const send = (path: string, init: RequestInit = {}) =>
      app.request(path, { ...init, headers: { 'content-type': 'application/json' } }, env);
    const started = await send('/runs', {
      method: 'POST',
      body: JSON.stringify({ state: { text: bigText } }),
    });
    expect(started.status).toBe(201);
    const { runId } = (await started.json()) as { runId: string };
    const call = await send(`/runs/${runId}/calls`, {
      method: 'POST',
      body: JSON.stringify({ tool: 'count_steps', args: { steps: 1, delayMs: 0 } }),
    });
    expect(await call.json()).toMatchObject({ ok: true, value: { steps: 1 } });
    const ended = await send(`/runs/${runId}`, { method: 'DELETE' });
    expect(await ended.json()).toMatchObject({ runId, ended: true });
  });
});
