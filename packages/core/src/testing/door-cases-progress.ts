import { expect } from 'vitest';
import type { ToolEvent } from '../events/catalogue.js';
import { plainJson } from '../plain-json.js';
import { type DoorCases, errorOf, freshKey, needs, pause, successValue, until } from './door-suite-kit.js';
import { doorSuiteBigTextLength, doorSuiteTimeoutMs } from './door-suite-tools.js';

const typesOf = (events: ToolEvent[]) => events.map((event) => event.type);

export const progressCases: DoorCases = (kit) => [
  {
    title: 'progress arrives in order with message, done and total intact, all before the result',
    run: () =>
      kit.withClients(async (open) => {
        const outcome = await (await open()).call('door_steps', { count: 4 });
        expect(successValue(outcome)).toEqual({ steps: 4 });
        const expected = [1, 2, 3, 4].map((done) => ({ message: `step ${done} of 4`, done, total: 4 }));
        expect(outcome.progress).toEqual(expected);
        const events = outcome.events.length;
        // Anything the door still delivers now arrived after the result.
        await pause(50);
        expect(outcome.progress, 'progress arrived after the result').toHaveLength(4);
        expect(outcome.events, 'events arrived after the result').toHaveLength(events);
        if (!kit.supplies.events) return;
        const types = typesOf(outcome.events).filter((type) => type.startsWith('tool.'));
        expect(types).toEqual(['tool.started', ...expected.map(() => 'tool.progress'), 'tool.finished']);
      }),
  },
  {
    title: 'a non-cloneable progress payload is refused, the plain one delivered, and the call succeeds',
    run: () =>
      kit.withClients(async (open) => {
        const outcome = await (await open()).call('door_bad_progress', {});
        expect(successValue(outcome)).toEqual({ reported: true });
        expect(outcome.progress).toEqual([{ message: 'plain', done: 1, total: 1 }]);
        if (!kit.supplies.events) return;
        const types = typesOf(outcome.events);
        expect(types).toContain('tool.report_rejected');
        expect(types.indexOf('tool.report_rejected')).toBeLessThan(types.indexOf('tool.finished'));
      }),
  },
  {
    title:
      'progress and events of plain data that is not JSON (a bigint, a Map, a Set, a cycle) arrive, and the call succeeds',
    run: () =>
      kit.withClients(async (open) => {
        const outcome = await (await open()).call('door_plain_data', {});
        expect(successValue(outcome)).toEqual({ reported: true });
        expect(outcome.progress).toMatchObject([{ message: 'sizes' }]);
        if (!kit.supplies.events) return;
        // A door across a boundary may carry them as structured clones or as JSON (plainJson's
        // forms); either reads the same once written as JSON.
        const asJson = (value: unknown) => JSON.parse(plainJson(value));
        const progress = outcome.events.find((event) => event.type === 'tool.progress');
        expect(asJson(progress?.data)).toMatchObject({
          payload: { message: 'sizes', big: '1180591620717411303424', map: { a: 1 }, set: [1] },
        });
        const looped = outcome.events.find((event) => event.type === 'custom.looped');
        const loop = { name: 'loop', self: '[cycle]' };
        expect(asJson(looped?.data)).toEqual({ loop, again: loop });
      }),
  },
  {
    title: 'a progress report of 3 MiB arrives whole, and so does the report after it; the call succeeds',
    run: () =>
      kit.withClients(async (open) => {
        const outcome = await (await open()).call('door_big_progress', {});
        expect(successValue(outcome)).toEqual({ reported: true });
        expect(outcome.progress).toMatchObject([{ message: 'page' }, { message: 'done' }]);
        if (!kit.supplies.events) return;
        const reports = outcome.events.filter((event) => event.type === 'tool.progress');
        const page = (reports[0]?.data as { payload?: { text?: string } } | undefined)?.payload?.text;
        expect(page?.length).toBe(doorSuiteBigTextLength);
        expect(reports).toHaveLength(2);
        expect(typesOf(outcome.events)).toContain('tool.finished');
      }),
  },
  needs(
    kit,
    kit.supplies.events,
    'events',
    'the call events arrive totally ordered: started, progress, finished',
    () =>
      kit.withClients(async (open) => {
        const outcome = await (await open()).call('door_steps', { count: 2 });
        const call = outcome.events.filter((event) => event.type.startsWith('tool.'));
        expect(typesOf(call)).toEqual(['tool.started', 'tool.progress', 'tool.progress', 'tool.finished']);
        const seqs = call.map((event) => event.seq);
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
        expect(new Set(call.map((event) => event.callId)).size).toBe(1);
      }),
  ),
  {
    title:
      'data nested 3,000 deep is refused as tool.report_rejected, the report after it arrives, and the call succeeds',
    run: () =>
      kit.withClients(async (open) => {
        const outcome = await (await open()).call('door_deep_report', {});
        expect(successValue(outcome)).toEqual({ reported: true });
        expect(outcome.progress).toMatchObject([{ message: 'after' }]);
        if (!kit.supplies.events) return;
        const call = outcome.events.filter((event) => event.type.startsWith('tool.'));
        expect(typesOf(call)).toEqual([
          'tool.started',
          'tool.report_rejected',
          'tool.report_rejected',
          'tool.progress',
          'tool.finished',
        ]);
      }),
  },
  needs(
    kit,
    kit.supplies.events,
    'events',
    'ctx.log arrives as tool.log events, in order, before the call finishes',
    () =>
      kit.withClients(async (open) => {
        const outcome = await (await open()).call('door_log', {});
        expect(successValue(outcome)).toEqual({ logged: 2 });
        const call = outcome.events.filter((event) => event.type.startsWith('tool.'));
        expect(typesOf(call)).toEqual(['tool.started', 'tool.log', 'tool.log', 'tool.finished']);
        expect(call.filter((event) => event.type === 'tool.log').map((event) => event.data)).toEqual([
          { tool: 'door_log', level: 'warning', message: 'a page was skipped', data: { page: 3 } },
          { tool: 'door_log', level: 'debug', message: 'done looking' },
        ]);
      }),
  ),
  {
    title: "a caller's abort reaches the tool's ctx.signal and settles the call as aborted",
    run: () =>
      kit.withClients(async (open) => {
        const client = await open();
        const key = freshKey('abort');
        const controller = new AbortController();
        const pending = client.call('door_wait_for_abort', { key }, { signal: controller.signal });
        // Abort once the tool listens to its signal (it records `started` as it starts listening).
        await until(
          async () => successValue<{ started: boolean }>(await client.call('door_probe', { key })).started,
          'the tool waits for its signal',
        );
        controller.abort();
        const outcome = await pending;
        expect(errorOf(outcome).kind).toBe('aborted');
        await until(async () => {
          const probe = successValue<{ started: boolean; aborted: boolean }>(
            await client.call('door_probe', { key }),
          );
          return probe.started && probe.aborted;
        }, "the tool's signal fired");
      }),
  },
  {
    title: 'a tool that ignores its signal settles at its timeout',
    run: () =>
      kit.withClients(async (open) => {
        const started = Date.now();
        const outcome = await (await open()).call('door_ignore_signal', {});
        expect(errorOf(outcome).kind).toBe('timeout');
        expect(Date.now() - started).toBeGreaterThanOrEqual(doorSuiteTimeoutMs - 10);
        expect(Date.now() - started).toBeLessThan(doorSuiteTimeoutMs + 5_000);
      }),
  },
];
