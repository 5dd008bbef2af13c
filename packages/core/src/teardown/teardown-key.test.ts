import { describe, expect, it } from 'vitest';
import { type TeardownKeyFacts, teardownKey } from './teardown-key.js';
import type { TeardownScope } from './teardown-registry.js';

describe('teardownKey', () => {
  it('composes who asked with the scope id', () => {
    const facts = { tenant: 'acme', principal: 'u1', runId: 'run_1', sessionId: 's1', callId: 'c1' };
    expect(teardownKey(facts, 'session')).toBe('session|t:acme|p:u1|s:s1');
    expect(teardownKey(facts, 'run')).toBe('run|t:acme|p:u1|r:run_1');
    expect(teardownKey(facts, 'call')).toBe('call|t:acme|p:u1|r:run_1|c:c1');
    expect(teardownKey(facts, 'shutdown')).toBe('shutdown|t:acme|p:u1');
  });

  it('reads a ctx as is: identity and toolCallId', () => {
    const ctx = { identity: { tenant: 'acme', principal: 'u1' }, runId: 'run_1', toolCallId: 'c1' };
    expect(teardownKey(ctx, 'call')).toBe(
      teardownKey({ tenant: 'acme', principal: 'u1', runId: 'run_1', callId: 'c1' }, 'call'),
    );
  });

  it('keeps sessions of different callers apart', () => {
    const a = teardownKey({ tenant: 'acme', principal: 'alice', sessionId: 's' }, 'session');
    const b = teardownKey({ tenant: 'acme', principal: 'bob', sessionId: 's' }, 'session');
    expect(a).not.toBe(b);
  });

  it('is injective over crafted values, absent and empty parts, and scopes', () => {
    const pieces = [
      undefined,
      '',
      'a',
      'b',
      'a|b',
      'a|p:b',
      'p:b',
      '|',
      ':',
      '%7C',
      't',
      'a%7Cb',
      'é',
      's:x',
    ];
    const facts: TeardownKeyFacts[] = [];
    for (const tenant of pieces) {
      for (const principal of pieces) {
        for (const id of pieces) facts.push({ tenant, principal, sessionId: id, runId: id, callId: id });
      }
    }
    const seen = new Map<string, string>();
    for (const scope of ['call', 'run', 'session', 'shutdown'] satisfies TeardownScope[]) {
      for (const fact of facts) {
        const key = teardownKey(fact, scope);
        const identity = JSON.stringify([
          scope,
          fact.tenant ?? null,
          fact.principal ?? null,
          scope === 'shutdown' ? null : (fact.sessionId ?? null),
        ]);
        const earlier = seen.get(key);
        if (earlier !== undefined) expect(earlier).toBe(identity);
        seen.set(key, identity);
      }
    }
    // Every distinct input gave a distinct key.
    expect(seen.size).toBe(pieces.length ** 3 * 3 + pieces.length ** 2);
  });
});
