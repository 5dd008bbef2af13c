import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolExecutionContext } from '../context/types.js';
import type { ToolEvent } from '../events/catalogue.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

class Point {
  constructor(
    public x: number,
    public y: number,
  ) {}
}

function harness(execute: (args: { id: string }, ctx: ToolExecutionContext) => unknown) {
  const events: ToolEvent[] = [];
  const tool = defineTool({
    name: 'reporter',
    description: 'Reports.',
    inputSchema: z.object({ id: z.string() }),
    execute,
  });
  const run = createRuntime({ tools: [tool], sinks: [(event) => void events.push(event)] }).startRun();
  return { run, events };
}

describe('ctx.progress', () => {
  it.each([
    ['a function', { message: 'x', callback: () => 1 }, /a function at \.callback/],
    ['a class instance', { at: new Point(1, 2) }, /an instance of Point at \.at/],
    ['a symbol', { tag: Symbol('s') }, /a symbol at \.tag/],
    ['a live handle', { stream: new ReadableStream() }, /an instance of ReadableStream/],
    ['a promise', { later: Promise.resolve(1) }, /an instance of Promise/],
    ['a nested function', { steps: [{ run() {} }] }, /a function at \.steps\[0\]\.run/],
    ['a megabyte of bytes', { page: new Uint8Array(1024 * 1024) }, /binary data at \.page/],
    ['a RegExp', { when: /x+/g }, /a RegExp at \.when/],
    [
      'data nested 3,000 deep',
      { deep: JSON.parse(`${'['.repeat(3000)}${']'.repeat(3000)}`) },
      /nested more than 64 deep/,
    ],
  ])('drops, counts and reports a payload holding %s', async (_what, payload, reason) => {
    const { run, events } = harness((_args, ctx) => {
      ctx.progress(payload as never);
      ctx.progress({ message: 'fine' });
    });
    await run.call({ tool: 'reporter', args: { id: 'a' } });
    const rejected = events.filter((event) => event.type === 'tool.report_rejected');
    expect(rejected).toHaveLength(1);
    expect((rejected[0]!.data as { reason: string }).reason).toMatch(reason);
    expect(events.filter((event) => event.type === 'tool.progress').map((event) => event.data)).toEqual([
      { tool: 'reporter', payload: { message: 'fine' }, n: 1 },
    ]);
    expect(run.stats.reportsRejected).toBe(1);
  });

  it('accepts plain data: nested objects, arrays, dates, maps, sets and cycles', async () => {
    const cyclic: Record<string, unknown> = { message: 'loop' };
    cyclic.self = cyclic;
    const payloads = [
      { message: 'a', done: 1, total: 3, nested: { list: [1, 'two', null, true] } },
      { when: new Date(0), map: new Map([['k', { v: 1 }]]), set: new Set([1]) },
      cyclic,
      'a bare string',
      42,
      null,
    ];
    const { run, events } = harness((_args, ctx) => {
      for (const payload of payloads) ctx.progress(payload as never);
    });
    await run.call({ tool: 'reporter', args: { id: 'a' } });
    expect(events.filter((event) => event.type === 'tool.progress')).toHaveLength(payloads.length);
    expect(run.stats.reportsRejected).toBe(0);
  });

  it('drops and counts a report filed after the call settled, never delivering it after tool.finished', async () => {
    let saved: ToolExecutionContext | undefined;
    const { run, events } = harness((_args, ctx) => {
      saved = ctx;
      // The timer fires long after the call settled (it settles within a few microtasks).
      setTimeout(() => ctx.progress({ message: 'from a timer, too late' }), 50);
      Promise.resolve().then(() => ctx.progress({ message: 'from a promise, in time' }));
      return Promise.resolve().then(() => Promise.resolve());
    });
    await run.call({ tool: 'reporter', args: { id: 'a' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    saved!.progress({ message: 'much later' });
    expect(events.map((event) => event.type)).toEqual([
      'run.started',
      'tool.started',
      'tool.progress',
      'tool.finished',
    ]);
    expect(run.stats.reportsDropped).toBe(2);
  });

  it('keeps started < progress < finished per call across a concurrent batch with timers and promises', async () => {
    const { run, events } = harness(async ({ id }, ctx) => {
      for (let step = 1; step <= 5; step++) {
        if (step % 2) await new Promise((resolve) => setTimeout(resolve, Math.random() * 4));
        else await Promise.resolve();
        ctx.progress({ message: `${id} step ${step}`, done: step, total: 5 });
      }
      setTimeout(() => ctx.progress({ message: 'after the end' }), 0);
      return id;
    });
    await run.callBatch(['a', 'b', 'c', 'd'].map((id) => ({ tool: 'reporter', args: { id } })));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const byCall = new Map<string, string[]>();
    for (const event of events) {
      if (!event.callId) continue;
      byCall.set(event.callId, [...(byCall.get(event.callId) ?? []), event.type]);
    }
    expect(byCall.size).toBe(4);
    for (const types of byCall.values()) {
      expect(types).toEqual(['tool.started', ...Array(5).fill('tool.progress'), 'tool.finished']);
    }
    expect(events.map((event) => event.seq)).toEqual(events.map((_event, index) => index + 1));
  });

  it('never throws, even when a sink throws, and the sink is detached once and reported once', async () => {
    const reports: string[] = [];
    let calls = 0;
    const tool = defineTool({
      name: 'reporter',
      description: 'Reports.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => {
        ctx.progress({ message: 'one' });
        ctx.progress({ message: 'two' });
        return 'done';
      },
    });
    const run = createRuntime({
      tools: [tool],
      sinks: [
        (event) => {
          if (event.type === 'tool.progress') {
            calls++;
            throw new Error('sink broke');
          }
        },
      ],
      onSinkError: (error, event) => reports.push(`${(error as Error).message} on ${event.type}`),
    }).startRun();
    expect(await run.call({ tool: 'reporter', args: {} })).toMatchObject({ ok: true, value: 'done' });
    expect(calls).toBe(1);
    expect(reports).toEqual(['sink broke on tool.progress']);
  });
});

describe('ctx.emit', () => {
  it('files custom.<type> events and refuses data that is not plain', async () => {
    const { run, events } = harness((_args, ctx) => {
      ctx.emit('step', { n: 1 });
      ctx.emit('custom.step', { n: 2 });
      expect(() => ctx.emit('bad', { f() {} })).toThrow(/a function at \.f/);
      expect(() => ctx.emit('')).toThrow(/needs an event name/);
    });
    await run.call({ tool: 'reporter', args: { id: 'a' } });
    expect(events.filter((event) => event.type === 'custom.step').map((event) => event.data)).toEqual([
      { n: 1 },
      { n: 2 },
    ]);
  });

  it('refuses a name outside the grammar, naming it and the grammar; files nothing for it', async () => {
    const hostile = [
      'step\n',
      'a\nevent: run.finished',
      'a\rb',
      'a\r\ndata: {}',
      'custom.\n',
      ' step',
      'Step',
      'step done',
      'a:b',
      '.step',
      '_step',
      '<script>',
      'café',
      'x'.repeat(65),
    ];
    const { run, events } = harness((_args, ctx) => {
      for (const name of hostile) {
        expect(() => ctx.emit(name, { n: 1 }), JSON.stringify(name)).toThrow(TypeError);
      }
      expect(() => ctx.emit('a\nb')).toThrow(
        'ctx.emit: "a\\nb" is not an event name: use 1 to 64 of a-z, 0-9, "_", "." and "-", the first a letter or digit (^[a-z0-9][a-z0-9_.-]{0,63}$); such as ctx.emit("step", {...}).',
      );
      for (const name of ['step', 'page.fetched', 'batch-2_done', '0', 'x'.repeat(64)]) ctx.emit(name);
    });
    expect(await run.call({ tool: 'reporter', args: { id: 'a' } })).toMatchObject({ ok: true });
    expect(events.filter((event) => event.type.startsWith('custom.')).map((event) => event.type)).toEqual([
      'custom.step',
      'custom.page.fetched',
      'custom.batch-2_done',
      'custom.0',
      `custom.${'x'.repeat(64)}`,
    ]);
  });
});
