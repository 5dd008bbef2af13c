import { artifactScope, type ToolEvent } from '@toolctx/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createIdbArtifactStore } from '../stores/idb-artifact-store.js';
import { connectWorker, type WorkerConnection } from './connect-worker.js';

const open: WorkerConnection[] = [];
afterEach(() => {
  for (const connection of open.splice(0)) connection.terminate();
});

describe('the Web Worker door: a call that has settled cannot act', () => {
  it('leaves no artifact and no artifact.put after tool.failed when the page cancels mid-put', async () => {
    const connection = connectWorker(
      new Worker(new URL('./settled-fixture.worker.ts', import.meta.url), { type: 'module' }),
    );
    open.push(connection);
    const identity = { tenant: 'acme', principal: `ana-${crypto.randomUUID()}` };
    const run = connection.startRun({ identity });
    const events: ToolEvent[] = [];
    run.events.subscribe((event) => void events.push(event));
    const controller = new AbortController();
    const saving = run.call({ tool: 'slow_save', args: {}, signal: controller.signal });
    await new Promise<void>((resolve) => {
      const stop = run.events.subscribe((event) => {
        if (event.type === 'tool.progress') resolve(stop());
      });
    });
    controller.abort();
    expect(await saving).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(await run.call({ tool: 'late_put', args: {} })).toMatchObject({ ok: true, value: 'call-settled' });
    await run.end();

    const page = createIdbArtifactStore({ name: 'toolctx-settled-door' });
    expect((await page.list(artifactScope(identity))).artifacts).toEqual([]);
    const failed = events.findIndex((event) => event.type === 'tool.failed');
    expect(failed).toBeGreaterThan(0);
    const { callId } = events[failed]!;
    expect(events.filter((event) => event.type === 'artifact.put')).toEqual([]);
    expect(events.slice(failed + 1).filter((event) => event.callId === callId)).toEqual([]);
  });
});
