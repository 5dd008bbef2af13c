import type { StandardSchemaV1 } from '@standard-schema/spec';
import { expect } from 'vitest';
import type { ArtifactMeta, ArtifactStore } from '../artifacts/types.js';
import type { ToolExecutionContext } from '../context/types.js';
import type { ToolEvent } from '../events/catalogue.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { artifactScope } from '../runtime/run-facts.js';
import { defineTool } from '../tools/define-tool.js';
import { type ArtifactCases, streamOf, utf8 } from './artifact-suite-kit.js';
import { errorKind, type SuiteCase } from './suite-cases.js';

const identity = { tenant: 'tenant-settled', principal: 'carol' };
const scope = artifactScope(identity);

/** Accepts any arguments: the suite needs no schema library. */
const anything: StandardSchemaV1<Record<string, never>> = {
  '~standard': {
    version: 1,
    vendor: 'toolctx-artifact-suite',
    validate: (value) => ({ value: value as never }),
  },
};

/**
 * Runs a tool whose write is started and then, before the store answers, its call is cancelled
 * through the request's signal; answers the write's own outcome and the run's events.
 */
async function cancelMidWrite(
  store: ArtifactStore,
  write: (ctx: ToolExecutionContext) => Promise<ArtifactMeta>,
): Promise<{ thrown: unknown; events: ToolEvent[] }> {
  const caller = new AbortController();
  let writing: Promise<ArtifactMeta> | undefined;
  const tool = defineTool({
    name: 'slow_save',
    description: 'Starts a write, then waits to be cancelled.',
    inputSchema: anything,
    inputJsonSchema: { type: 'object' },
    effect: 'write',
    execute: (_args, ctx) => {
      writing = write(ctx);
      caller.abort();
      return new Promise<never>(() => {});
    },
  });
  const events: ToolEvent[] = [];
  const run = createRuntime({ tools: [tool], artifacts: store }).startRun({
    identity,
    onEvent: (event) => void events.push(event),
  });
  const result = await run.call({ tool: 'slow_save', args: {}, signal: caller.signal });
  expect(result, 'the cancelled call').toMatchObject({ ok: false, error: { kind: 'aborted' } });
  const thrown = await writing!.then(
    () => undefined,
    (error: unknown) => error,
  );
  await run.end();
  return { thrown, events };
}

function expectNothingLeft(events: readonly ToolEvent[], thrown: unknown): void {
  expect(errorKind(thrown), `the late write rejected with ${String(thrown)}`).toBe('call-settled');
  const failedAt = events.findIndex((event) => event.type === 'tool.failed');
  expect(failedAt, 'the call failed').toBeGreaterThanOrEqual(0);
  const { callId } = events[failedAt]!;
  expect(events.filter((event) => event.type === 'artifact.put')).toEqual([]);
  expect(events.slice(failedAt + 1).filter((event) => event.callId === callId)).toEqual([]);
}

/**
 * A call that has settled can no longer act: a put in flight when its call is cancelled leaves
 * nothing in the store, whatever the store. Run through `createRuntime`, since the guard lives in
 * the runtime's bound `ctx.artifacts`, over the raw store under test.
 */
export const settledCases: ArtifactCases = ({ fresh, options }) => {
  const cases: SuiteCase[] = [
    {
      title: 'a put in flight when its call is cancelled leaves no artifact',
      run: async () => {
        const { store } = await fresh();
        const { thrown, events } = await cancelMidWrite(store, (ctx) =>
          ctx.artifacts.put({ kind: 'note', data: 'written too late' }),
        );
        expectNothingLeft(events, thrown);
        expect((await store.list(scope)).artifacts).toEqual([]);
      },
    },
  ];
  if (options.capabilities.streaming) {
    cases.push({
      title: 'a putStream in flight when its call is cancelled leaves no artifact',
      run: async () => {
        const { store } = await fresh();
        const { thrown, events } = await cancelMidWrite(store, (ctx) =>
          ctx.artifacts.putStream!({ kind: 'note', data: streamOf([utf8('streamed '), utf8('too late')]) }),
        );
        expectNothingLeft(events, thrown);
        expect((await store.list(scope)).artifacts).toEqual([]);
      },
    });
  }
  return cases;
};
