import { describe, expect, it } from 'vitest';
import { ToolctxError } from '../errors.js';
import { scopeKey } from './scope-key.js';
import type { ArtifactScope } from './types.js';

const scope = (tenant: string, principal: string, conversation: string): ArtifactScope => ({
  tenant,
  principal,
  conversation,
});

describe('scopeKey', () => {
  it('keeps / placed across fields apart', () => {
    expect(scopeKey(scope('a/b', 'c', 'd'))).not.toBe(scopeKey(scope('a', 'b/c', 'd')));
    expect(scopeKey(scope('a', 'b/c', 'd'))).not.toBe(scopeKey(scope('a', 'b', 'c/d')));
  });

  it('gives exactly three /-separated fields, none of them empty, . or ..', () => {
    for (const value of ['', '.', '..', '/', '//', 'a/b', '%2F', '~']) {
      const parts = scopeKey(scope(value, value, value)).split('/');
      expect(parts).toHaveLength(3);
      for (const part of parts) expect(['', '.', '..']).not.toContain(part);
    }
  });

  it('keeps empty fields valid and distinct from each other and from ~', () => {
    const keys = [
      scope('', '', ''),
      scope('', 'x', ''),
      scope('x', '', ''),
      scope('', '', 'x'),
      scope('~', '~', '~'),
      scope('~', '', ''),
    ].map(scopeKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps .., %2F, encoded lookalikes and unicode apart', () => {
    const values = [
      '..',
      '.',
      '%2F',
      '/',
      '%252F',
      '%',
      '%25',
      'é',
      'e\u0301',
      '😀',
      '\uD800',
      '\uDC00',
      '~u',
      '~uD800',
      '*',
      "'()!",
    ];
    const keys = values.map((value) => scopeKey(scope(value, 'p', 'c')));
    expect(new Set(keys).size).toBe(values.length);
    expect(scopeKey(scope('..', 'p', 'c'))).toBe('%2E%2E/p/c');
  });

  it('encodes very long (10 KB) values without collision', () => {
    const long = 'a/'.repeat(5_000);
    expect(scopeKey(scope(long, 'x', 'y'))).not.toBe(scopeKey(scope(long.slice(0, -1), '/x', 'y')));
    expect(scopeKey(scope(long, '', '')).length).toBeGreaterThan(10_000);
  });

  it('is injective over 10,000 random pairs of hostile scopes', () => {
    const alphabet = ['a', 'b', '/', '%', '2', 'F', '~', '.', '', 'é', '\uD83D', '\uDE00', ':', '*', ' '];
    const field = () => {
      let out = '';
      const length = Math.floor(Math.random() * 4);
      for (let i = 0; i < length; i++) out += alphabet[Math.floor(Math.random() * alphabet.length)];
      return out;
    };
    let equalPairs = 0;
    for (let i = 0; i < 10_000; i++) {
      const left = scope(field(), field(), field());
      const right = scope(field(), field(), field());
      const same =
        left.tenant === right.tenant &&
        left.principal === right.principal &&
        left.conversation === right.conversation;
      if (same) equalPairs++;
      expect(scopeKey(left) === scopeKey(right), JSON.stringify([left, right])).toBe(same);
    }
    expect(equalPairs).toBeLessThan(10_000);
  });

  it('refuses a non-string field or a non-object scope with a clear error', () => {
    for (const bad of [
      null,
      'tenant',
      { tenant: 't', principal: 1, conversation: 'c' },
      { tenant: 't', principal: 'p' },
    ]) {
      let thrown: unknown;
      try {
        scopeKey(bad as never);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ToolctxError);
      expect((thrown as ToolctxError).kind).toBe('invalid-argument');
    }
    expect(() => scopeKey({ tenant: 't', principal: 1, conversation: 'c' } as never)).toThrow(
      /"principal" must be a string/,
    );
  });
});
