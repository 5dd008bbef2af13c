import { describe, expect, it } from 'vitest';
import { ToolctxError } from '../errors.js';
import {
  createTeardownRegistry,
  type TeardownFailed,
  type TeardownFired,
  type TeardownRegistryOptions,
} from './teardown-registry.js';

function setup(options: Partial<TeardownRegistryOptions> = {}) {
  const fired: TeardownFired[] = [];
  const failed: TeardownFailed[] = [];
  const registry = createTeardownRegistry({
    honours: ['call', 'run', 'session', 'shutdown'],
    doorName: 'test',
    onFired: (info) => fired.push(info),
    onFailed: (info) => failed.push(info),
    ...options,
  });
  return { registry, fired, failed };
}

const never = () => new Promise<never>(() => undefined);

describe('createTeardownRegistry', () => {
  it('runs a key’s cleanups last-in first-out, only that key’s', async () => {
    const { registry, fired } = setup();
    const order: string[] = [];
    for (const tool of ['a', 'b', 'c']) {
      registry.register({ toolName: tool, scope: 'run', key: 'run_1', cleanup: () => order.push(tool) });
    }
    registry.register({ toolName: 'a', scope: 'run', key: 'run_2', cleanup: () => order.push('other run') });
    registry.register({
      toolName: 'a',
      scope: 'call',
      key: 'run_1',
      cleanup: () => order.push('call scope'),
    });
    await registry.fire('run', 'run_1');
    expect(order).toEqual(['c', 'b', 'a']);
    expect(fired).toEqual(['c', 'b', 'a'].map((toolName) => ({ scope: 'run', key: 'run_1', toolName })));
  });

  it('keeps the first registration of a (tool, scope, key)', async () => {
    const { registry } = setup();
    const ran: string[] = [];
    expect(
      registry.register({ toolName: 't', scope: 'call', key: 'k', cleanup: () => ran.push('first') }),
    ).toBe(true);
    expect(
      registry.register({ toolName: 't', scope: 'call', key: 'k', cleanup: () => ran.push('second') }),
    ).toBe(false);
    expect(
      registry.register({ toolName: 'u', scope: 'call', key: 'k', cleanup: () => ran.push('other tool') }),
    ).toBe(true);
    await registry.fire('call', 'k');
    expect(ran).toEqual(['other tool', 'first']);
  });

  it('fires each cleanup exactly once, even when fired twice at once', async () => {
    const { registry } = setup();
    let runs = 0;
    registry.register({ toolName: 't', scope: 'run', key: 'r', cleanup: async () => void runs++ });
    await Promise.all([registry.fire('run', 'r'), registry.fire('run', 'r')]);
    await registry.fire('run', 'r');
    expect(runs).toBe(1);
  });

  it('reports a throwing cleanup and goes on, never throwing', async () => {
    const { registry, failed, fired } = setup();
    registry.register({ toolName: 'ok', scope: 'call', key: 'k', cleanup: () => undefined });
    registry.register({
      toolName: 'bad',
      scope: 'call',
      key: 'k',
      cleanup: () => {
        throw new TypeError('secret-detail');
      },
    });
    await expect(registry.fire('call', 'k')).resolves.toBeUndefined();
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      scope: 'call',
      key: 'k',
      toolName: 'bad',
      error: { kind: 'tool-error', exception: 'TypeError' },
    });
    expect(failed[0]?.error.message).toContain('`bad`');
    expect(JSON.stringify(failed)).not.toContain('secret-detail');
    expect(fired.map((f) => f.toolName)).toEqual(['ok']);
  });

  it('bounds a hanging cleanup by timeoutMs and runs the next one', async () => {
    const { registry, failed, fired } = setup({ timeoutMs: 20 });
    registry.register({ toolName: 'next', scope: 'run', key: 'r', cleanup: () => undefined });
    registry.register({ toolName: 'hangs', scope: 'run', key: 'r', cleanup: never });
    const started = Date.now();
    await registry.fire('run', 'r');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(failed).toMatchObject([
      { toolName: 'hangs', error: { kind: 'timeout', details: { timeoutMs: 20 } } },
    ]);
    expect(fired.map((f) => f.toolName)).toEqual(['next']);
  });

  it('survives listeners that throw', async () => {
    const { registry } = setup({
      onFired: () => {
        throw new Error('listener');
      },
    });
    const ran: number[] = [];
    registry.register({ toolName: 'a', scope: 'call', key: 'k', cleanup: () => ran.push(1) });
    registry.register({ toolName: 'b', scope: 'call', key: 'k', cleanup: () => ran.push(2) });
    await registry.fire('call', 'k');
    expect(ran).toEqual([2, 1]);
  });

  it('runs a cleanup registered after its call ended at once, and only once', async () => {
    const { registry, fired } = setup();
    await registry.fire('call', 'c1');
    let runs = 0;
    expect(
      registry.register({ toolName: 'late', scope: 'call', key: 'c1', cleanup: () => void runs++ }),
    ).toBe(true);
    expect(
      registry.register({ toolName: 'late', scope: 'call', key: 'c1', cleanup: () => void runs++ }),
    ).toBe(false);
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runs).toBe(1);
    expect(fired).toEqual([{ scope: 'call', key: 'c1', toolName: 'late' }]);
    await registry.fire('call', 'c1');
    expect(runs).toBe(1);
  });

  it('lets a session key live again after it fired', async () => {
    const { registry } = setup();
    const ran: string[] = [];
    registry.register({ toolName: 't', scope: 'session', key: 's', cleanup: () => ran.push('first') });
    await registry.fire('session', 's');
    registry.register({ toolName: 't', scope: 'session', key: 's', cleanup: () => ran.push('second') });
    expect(ran).toEqual(['first']);
    await registry.fire('session', 's');
    expect(ran).toEqual(['first', 'second']);
  });

  it('fires every key of a scope at shutdown', async () => {
    const { registry } = setup();
    const ran: string[] = [];
    for (const key of ['s1', 's2'])
      registry.register({ toolName: 't', scope: 'session', key, cleanup: () => ran.push(key) });
    registry.register({ toolName: 't', scope: 'shutdown', key: '', cleanup: () => ran.push('shutdown') });
    await registry.fireAll('session');
    expect(ran.sort()).toEqual(['s1', 's2']);
    await registry.fireAll('shutdown');
    expect(ran).toContain('shutdown');
  });

  it('refuses a scope the door does not honour, naming the door and its scopes', () => {
    const registry = createTeardownRegistry({ honours: ['call', 'run'], doorName: 'Web Worker' });
    expect(registry.honours).toEqual(['call', 'run']);
    let error: unknown;
    try {
      registry.register({ toolName: 't', scope: 'session', key: 's', cleanup: () => undefined });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ToolctxError);
    const info = (error as ToolctxError).info;
    expect(info).toMatchObject({
      kind: 'unsupported',
      details: { door: 'Web Worker', scope: 'session', honours: ['call', 'run'] },
    });
    expect(info.message).toContain('Web Worker');
    expect(info.message).toContain("'call', 'run'");
  });

  it('refuses a bad time bound and a cleanup that is not a function', () => {
    expect(() => createTeardownRegistry({ honours: ['call'], doorName: 'd', timeoutMs: 0 })).toThrow(
      ToolctxError,
    );
    const { registry } = setup();
    expect(() =>
      registry.register({ toolName: 't', scope: 'call', key: 'k', cleanup: 'rm -rf' as never }),
    ).toThrow(ToolctxError);
  });
});
