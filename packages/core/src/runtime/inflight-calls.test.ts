import { describe, expect, it } from 'vitest';
import { InflightCalls } from './inflight-calls.js';
import { Invocation } from './invocation.js';

describe('InflightCalls', () => {
  it('lists the calls in flight oldest first, whichever ended', () => {
    const inflight = new InflightCalls();
    const [a, b, c, d] = [new Invocation(), new Invocation(), new Invocation(), new Invocation()];
    for (const call of [a, b, c]) inflight.add(call);
    inflight.delete(b);
    expect(inflight.list()).toEqual([a, c]);
    inflight.add(d);
    inflight.delete(a);
    expect(inflight.list()).toEqual([c, d]);
    inflight.delete(d);
    inflight.delete(d);
    expect(inflight.list()).toEqual([c]);
    inflight.delete(c);
    expect(inflight.list()).toEqual([]);
    inflight.add(b);
    expect(inflight.list()).toEqual([b]);
  });
});
