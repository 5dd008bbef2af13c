import { createRuntime, type ToolEvent } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { countSteps } from '../example/index.js';
import { httpDoor } from '../run-host/doors.js';
import { RunLog } from '../run-host/run-log.js';
import { RunState } from '../run-host/run-state.js';
import { createMemoryRunStorage } from '../run-host/run-storage.js';
import { messagesUntil } from '../test-utils/sse.js';

// Core refuses custom event names outside the grammar (the HTTP corpus, hostile-corpus.test.ts,
// sends them through ctx.emit); this is the door's own defence if a poisoned type is in a log anyway.
describe('HTTP door: an event type with a line break already in a log', () => {
  it('an event whose type holds a line break, already in a log, is sent as a plain message: the stream is not broken', async () => {
    const log = new RunLog(createMemoryRunStorage(), 100);
    const state = new RunState(createRuntime({ tools: [countSteps] }).withDoor(httpDoor), log, {
      heartbeatMs: 0,
    });
    const identity = { tenant: 't', principal: 'p' };
    state.start({ runId: 'run_poisoned', identity });
    const type = 'custom.bad\nevent: run.finished';
    log.append({ type, seq: 2, runId: 'run_poisoned', ts: 1, data: null } as unknown as ToolEvent);
    const reply = await state.events(identity, 0);
    if (!reply.ok) throw new Error(reply.error.message);
    const messages = await messagesUntil(new Response(reply.value), (_, all) => all.length === 2);
    expect(messages.map((m) => m.event)).toEqual(['run.started', 'message']);
    expect(JSON.parse(messages[1]!.data)).toMatchObject({ type, seq: 2 });
    await state.end(identity);
  });
});
