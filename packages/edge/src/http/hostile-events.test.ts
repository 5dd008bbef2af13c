import { createRuntime, defineTool, type ToolEvent } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { countSteps } from '../example/index.js';
import { createMemoryRunDirectory, createToolServer } from '../index.js';
import { httpDoor } from '../run-host/doors.js';
import { RunLog } from '../run-host/run-log.js';
import { RunState } from '../run-host/run-state.js';
import { createMemoryRunStorage } from '../run-host/run-storage.js';
import { eventsOf, messagesUntil } from '../test-utils/sse.js';

// Hostile custom event names (a tool's `ctx.emit`): none may poison the run's log, answer a 5xx
// or stop the readers of the run's event stream.
const emitNamed = defineTool({
  name: 'emit_named',
  description: 'Emits one custom event with the given name.',
  input: z.object({ name: z.string() }),
  execute({ name }, ctx) {
    ctx.emit(name, { hostile: true });
    return { emitted: name };
  },
});

const hostileNames = [
  'bad\nname',
  'bad\r\nevent: run.finished',
  'with space',
  `x${'y'.repeat(64)}`,
  'ümlaut',
  '\u2028',
];

describe('HTTP door: hostile custom event names', () => {
  it.each(hostileNames.map((name) => [JSON.stringify(name), name] as const))(
    'ctx.emit(%s) fails the call as data; the event stream stays 200 and its live reader sees what follows',
    async (_label, name) => {
      const runtime = createRuntime({ tools: [emitNamed, countSteps] });
      const app = createToolServer({
        runtime,
        runs: createMemoryRunDirectory({ runtime }),
        authenticate: () => ({ tenant: 't', principal: 'p' }),
      });
      const post = (path: string, body: unknown) =>
        app.request(path, {
          method: 'POST',
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
      const { runId } = (await (await post('/runs', {})).json()) as { runId: string };
      const reader = await app.request(`/runs/${runId}/events`);
      expect(reader.status).toBe(200);
      const hostile = await post(`/runs/${runId}/calls`, { tool: 'emit_named', args: { name } });
      expect(hostile.status).toBe(200);
      expect(await hostile.json()).toMatchObject({
        ok: false,
        error: { kind: 'tool-error', exception: 'TypeError' },
      });
      await (
        await post(`/runs/${runId}/calls`, { tool: 'count_steps', args: { steps: 1, delayMs: 0 } })
      ).text();
      const seen = eventsOf(
        await messagesUntil(reader, (_, all) => all.filter((m) => m.event === 'tool.finished').length === 1),
      );
      expect(seen.map((e) => e.type)).toEqual([
        'run.started',
        'tool.started',
        'tool.failed',
        'tool.started',
        'tool.progress',
        'tool.finished',
      ]);
      const replay = await app.request(`/runs/${runId}/events`);
      expect(replay.status).toBe(200);
      await replay.body?.cancel();
    },
  );

  it('an event whose type holds a line break, already in a log, is sent as a plain message: the stream is not broken', async () => {
    const log = new RunLog(createMemoryRunStorage(), 100);
    const state = new RunState(createRuntime({ tools: [countSteps] }).withDoor(httpDoor), log, {
      heartbeatMs: 0,
    });
    const identity = { tenant: 't', principal: 'p' };
    state.start({ runId: 'run_poisoned', identity });
    const type = 'custom.bad\nevent: run.finished';
    log.append({ type, seq: 2, runId: 'run_poisoned', ts: 1, data: null } as unknown as ToolEvent);
    const reply = state.events(identity, 0);
    if (!reply.ok) throw new Error(reply.error.message);
    const messages = await messagesUntil(new Response(reply.value), (_, all) => all.length === 2);
    expect(messages.map((m) => m.event)).toEqual(['run.started', undefined]);
    expect(JSON.parse(messages[1]!.data)).toMatchObject({ type, seq: 2 });
    await state.end(identity);
  });
});
