import {
  type ArtifactMeta,
  type ArtifactStore,
  createRuntime,
  defineTool,
  type ToolResult,
} from '@toolctx/core';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryRunDirectory, createToolServer } from '../index.js';
import { authenticate } from '../test-utils/server.js';
import { allMessages, eventsOf } from '../test-utils/sse.js';

/** A memory store whose puts wait for `release`; `started` resolves when one begins. */
function slowStore() {
  const inner = createMemoryArtifactStore();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let began!: () => void;
  const started = new Promise<void>((resolve) => {
    began = resolve;
  });
  const store: ArtifactStore = {
    ...inner,
    put: async (scope, input) => {
      began();
      await gate;
      return inner.put(scope, input);
    },
  };
  return { store, release, started };
}

describe('HTTP door: a call that has settled cannot act', () => {
  it('leaves no artifact and no artifact.put after tool.failed when a call is cancelled mid-put', async () => {
    const { store, release, started } = slowStore();
    let putting: Promise<ArtifactMeta> | undefined;
    const slowSave = defineTool({
      name: 'slow_save',
      description: 'Saves a note through a slow store.',
      inputSchema: z.object({}),
      effect: 'write',
      execute: (_args, ctx) => {
        putting = ctx.artifacts.put({ kind: 'note', data: 'written too late' });
        return putting;
      },
    });
    const runtime = createRuntime({ tools: [slowSave], artifacts: store });
    const app = createToolServer({
      runtimeFor: () => runtime,
      runs: createMemoryRunDirectory({ runtime }),
      authenticate,
    });
    const send = (path: string, method = 'GET', body?: unknown) =>
      app.request(path, {
        method,
        headers: { authorization: 'Bearer ana', 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const { runId } = (await (await send('/runs', 'POST', {})).json()) as { runId: string };

    const calling = send(`/runs/${runId}/calls`, 'POST', { tool: 'slow_save', args: {}, toolCallId: 'late' });
    await started;
    expect((await send(`/runs/${runId}/calls/late/cancel`, 'POST', {})).status).toBe(200);
    const result = (await (await calling).json()) as ToolResult;
    expect(result).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    release();
    await expect(putting).rejects.toMatchObject({ info: { kind: 'call-settled' } });

    expect(await (await send('/artifacts')).json()).toMatchObject({ artifacts: [] });
    expect((await send(`/runs/${runId}`, 'DELETE')).status).toBe(200);
    const events = eventsOf(await allMessages(await send(`/runs/${runId}/events`)));
    const failed = events.findIndex((event) => event.type === 'tool.failed' && event.callId === 'late');
    expect(failed).toBeGreaterThan(0);
    expect(events.filter((event) => event.type === 'artifact.put')).toEqual([]);
    expect(events.slice(failed + 1).filter((event) => event.callId === 'late')).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'run.finished' });
  });
});
