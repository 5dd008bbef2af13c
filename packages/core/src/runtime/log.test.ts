import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolExecutionContext } from '../context/types.js';
import { staticCredentials } from '../credentials/static-credentials.js';
import type { ToolEvent } from '../events/catalogue.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

function harness(execute: (args: object, ctx: ToolExecutionContext) => unknown, withKey = false) {
  const events: ToolEvent[] = [];
  const tool = defineTool({
    name: 'logger',
    description: 'Logs.',
    inputSchema: z.object({}),
    ...(withKey ? { needs: { credential: 'api' } } : {}),
    execute,
  });
  const run = createRuntime({
    tools: [tool],
    credentials: staticCredentials({ api: 'sk-SECRET-123', other: 'sk-OTHER-456' }),
    sinks: [(event) => void events.push(event)],
  }).startRun();
  const call = () => run.call({ tool: 'logger', args: {} });
  const of = (type: string) => events.filter((event) => event.type === type).map((event) => event.data);
  return { run, events, call, of };
}

describe('ctx.log', () => {
  it('files a tool.log event with the tool, level, message and data, between started and finished', async () => {
    const { events, call, of } = harness((_args, ctx) => {
      ctx.log('info', 'fetched 3 pages', { pages: 3 });
      ctx.log('warning', 'one page was empty');
      return 'done';
    });
    expect((await call()).ok).toBe(true);
    expect(of('tool.log')).toEqual([
      { tool: 'logger', level: 'info', message: 'fetched 3 pages', data: { pages: 3 } },
      { tool: 'logger', level: 'warning', message: 'one page was empty' },
    ]);
    expect(events.filter((event) => event.callId).map((event) => event.type)).toEqual([
      'tool.started',
      'tool.log',
      'tool.log',
      'tool.finished',
    ]);
  });

  it('accepts every MCP (RFC 5424) level', async () => {
    const levels = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
    const { call, of } = harness((_args, ctx) => {
      for (const level of levels) ctx.log(level, level);
    });
    await call();
    expect(of('tool.log').map((data) => (data as { level: string }).level)).toEqual([...levels]);
  });

  it.each([
    ['an unknown level', ['loud', 'x'], /level "loud" is not one of debug, info/],
    ['a message that is not a string', ['info', { text: 'x' }], /string message second, not object/],
    [
      'data holding a function',
      ['info', 'x', { callback: () => 1 }],
      /ctx\.log data holds a function at \.callback/,
    ],
    ['data holding a class instance', ['info', 'x', { at: new URL('https://a.test') }], /an instance of URL/],
  ])(
    'drops, counts and reports an entry with %s, and the call still succeeds',
    async (_what, args, reason) => {
      const { run, call, of } = harness((_args, ctx) => {
        (ctx.log as (...a: unknown[]) => void)(...args);
        ctx.log('info', 'fine');
        return 'ok';
      });
      expect(await call()).toMatchObject({ ok: true, value: 'ok' });
      const rejected = of('tool.report_rejected') as { reason: string }[];
      expect(rejected).toHaveLength(1);
      expect(rejected[0]!.reason).toMatch(reason);
      expect(of('tool.log')).toEqual([{ tool: 'logger', level: 'info', message: 'fine' }]);
      expect(run.stats.reportsRejected).toBe(1);
    },
  );

  it('drops and counts an entry filed after the call settled, never delivering it after tool.finished', async () => {
    let saved: ToolExecutionContext | undefined;
    const { run, events, call } = harness((_args, ctx) => {
      saved = ctx;
      setTimeout(() => ctx.log('info', 'from a timer, too late'), 30);
    });
    await call();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(() => saved!.log('error', 'much later')).not.toThrow();
    expect(events.map((event) => event.type)).toEqual(['run.started', 'tool.started', 'tool.finished']);
    expect(run.stats.reportsDropped).toBe(2);
  });

  it('cuts a long message at 1,000 graphemes and states the cut', async () => {
    const { call, of } = harness((_args, ctx) => ctx.log('debug', '🙂'.repeat(1_500)));
    await call();
    const [entry] = of('tool.log') as { message: string }[];
    expect(entry!.message).toBe(`${'🙂'.repeat(1_000)}… (+500 more)`);
  });

  it("replaces the call's credential value wherever it occurs in the message and the data", async () => {
    const { events, call, of } = harness((_args, ctx) => {
      const key = ctx.credential!.value;
      ctx.log('debug', `calling with ${key}`, { header: `Bearer ${key}`, list: [key], [key]: 1 });
      ctx.log('debug', `as text ${ctx.credential}`);
      ctx.log('debug', 'the wrapper itself', { credential: ctx.credential });
    }, true);
    await call();
    expect(of('tool.log')).toEqual([
      {
        tool: 'logger',
        level: 'debug',
        message: 'calling with [redacted]',
        data: { header: 'Bearer [redacted]', list: ['[redacted]'], '[redacted]': 1 },
      },
      { tool: 'logger', level: 'debug', message: 'as text [credential api]' },
    ]);
    expect(of('tool.report_rejected')).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain('SECRET');
  });

  it('never throws into the tool when a sink throws', async () => {
    const tool = defineTool({
      name: 'logger',
      description: 'Logs.',
      inputSchema: z.object({}),
      execute: (_args, ctx) => {
        ctx.log('info', 'one');
        ctx.log('info', 'two');
        return 'ok';
      },
    });
    const reports: string[] = [];
    const sink = (event: ToolEvent) => {
      if (event.type === 'tool.log') throw new Error('sink down');
    };
    const run = createRuntime({
      tools: [tool],
      sinks: [sink],
      onSinkError: (error, event) => reports.push(`${(error as Error).message} on ${event.type}`),
    }).startRun();
    expect(await run.call({ tool: 'logger', args: {} })).toMatchObject({ ok: true, value: 'ok' });
    expect(reports).toEqual(['sink down on tool.log']);
  });
});

describe('credentials in what a tool reports', () => {
  async function reported(
    execute: (args: object, ctx: ToolExecutionContext) => unknown,
    needs = false,
  ): Promise<ToolEvent[]> {
    const { events, call } = harness(execute, needs);
    expect(await call()).toMatchObject({ ok: true });
    return events;
  }
  const dataOf = (events: ToolEvent[], type: string) =>
    events.filter((event) => event.type === type).map((event) => event.data);

  it("replaces the declared credential's value in progress reports, strings and plain data alike (Map and Set included)", async () => {
    const events = await reported((_args, ctx) => {
      const key = ctx.credential!.value;
      ctx.progress(`using ${key}`);
      ctx.progress({
        message: `Bearer ${key}`,
        done: 1,
        total: 2,
        seen: new Map([[key, [key]]]),
        tags: new Set([key]),
      });
    }, true);
    expect(dataOf(events, 'tool.progress')).toEqual([
      { tool: 'logger', payload: 'using [redacted]', n: 1 },
      {
        tool: 'logger',
        payload: {
          message: 'Bearer [redacted]',
          done: 1,
          total: 2,
          seen: new Map([['[redacted]', ['[redacted]']]]),
          tags: new Set(['[redacted]']),
        },
        n: 2,
      },
    ]);
    expect(JSON.stringify(events)).not.toContain('SECRET');
  });

  it('replaces every value ctx.credentials.get gave the call in progress, ctx.log and ctx.emit, from the moment it was given', async () => {
    const events = await reported(async (_args, ctx) => {
      const first = (await ctx.credentials.get({ credential: 'api' })).value;
      const second = (await ctx.credentials.get({ credential: 'other' })).value;
      ctx.progress({ message: `${first} and ${second}` });
      ctx.log('info', `key ${first}`, { other: second });
      ctx.emit('keys', { list: [first, second] });
      return 'ok';
    });
    expect(dataOf(events, 'tool.progress')).toEqual([
      { tool: 'logger', payload: { message: '[redacted] and [redacted]' }, n: 1 },
    ]);
    expect(dataOf(events, 'tool.log')).toEqual([
      { tool: 'logger', level: 'info', message: 'key [redacted]', data: { other: '[redacted]' } },
    ]);
    expect(dataOf(events, 'custom.keys')).toEqual([{ list: ['[redacted]', '[redacted]'] }]);
    expect(JSON.stringify(events)).not.toMatch(/SECRET|OTHER/);
  });

  it('leaves reports of a call that holds no credential as they are: the same payload object', async () => {
    const payload = { message: 'plain', done: 1 };
    const events = await reported((_args, ctx) => ctx.progress(payload));
    expect(dataOf(events, 'tool.progress')[0]).toMatchObject({ payload });
    expect((dataOf(events, 'tool.progress')[0] as { payload: unknown }).payload).toBe(payload);
  });
});
