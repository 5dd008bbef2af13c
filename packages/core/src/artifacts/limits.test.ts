// `checkArtifactLimits` documents "each must be a whole number ≥ 0", refused with an
// `invalid-argument` error when a store is made: pinned here through the memory store.
import { describe, expect, it } from 'vitest';
import { ToolctxError } from '../errors.js';
import { createMemoryArtifactStore } from './memory-store.js';
import type { ArtifactLimits } from './types.js';

const names = ['maxBytesPerScope', 'maxCountPerScope', 'maxArtifactBytes'] as const;

function refusal(limits: ArtifactLimits): ToolctxError {
  try {
    createMemoryArtifactStore({ limits });
  } catch (thrown) {
    if (thrown instanceof ToolctxError) return thrown;
    throw thrown;
  }
  throw new Error(`createMemoryArtifactStore accepted ${JSON.stringify(limits)}`);
}

describe('artifact store limits: "each must be a whole number ≥ 0"', () => {
  describe.each(names)('%s', (name) => {
    it.each([
      ['-1', -1],
      ['1.5', 1.5],
      ['NaN', Number.NaN],
      ['Infinity', Number.POSITIVE_INFINITY],
      ['-Infinity', Number.NEGATIVE_INFINITY],
    ])('refuses %s with invalid-argument, naming the limit', (shown, value) => {
      const error = refusal({ [name]: value });
      expect(error.kind).toBe('invalid-argument');
      expect(error.info).toEqual({
        kind: 'invalid-argument',
        message: `Artifact limit "${name}" must be a whole number ≥ 0, got ${shown}.`,
        retryable: false,
      });
    });

    it('refuses a value that is not a number', () => {
      expect(refusal({ [name]: '10' as never }).kind).toBe('invalid-argument');
    });

    it.each([0, 1, 10_000_000])('accepts %d, and the store declares it', (value) => {
      const store = createMemoryArtifactStore({ limits: { [name]: value } });
      expect(store.capabilities.limits).toEqual({ [name]: value });
    });
  });

  it('accepts 0 as a working cap: a store with maxCountPerScope 0 refuses every put', async () => {
    const store = createMemoryArtifactStore({ limits: { maxCountPerScope: 0 } });
    const scope = { tenant: 't', principal: 'p', conversation: 'c' };
    await expect(store.put(scope, { kind: 'note', data: 'x' })).rejects.toMatchObject({
      kind: 'quota-exceeded',
    });
  });

  it('accepts no limits, and undefined ones, as no caps', () => {
    expect(createMemoryArtifactStore().capabilities.limits).toEqual({});
    expect(
      createMemoryArtifactStore({ limits: { maxBytesPerScope: undefined } }).capabilities.limits,
    ).toEqual({ maxBytesPerScope: undefined });
  });
});
