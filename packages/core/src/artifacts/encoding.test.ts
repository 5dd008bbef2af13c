import { describe, expect, it } from 'vitest';
import { ToolctxError } from '../errors.js';
import { decodeArtifactData, encodeArtifactData } from './encoding.js';

describe('encodeArtifactData', () => {
  it('encodes text, bytes and JSON, and decodes them back', () => {
    for (const data of ['é😀', new Uint8Array([0, 255]), { a: [1, null, 'x'] }, 0, null]) {
      const { encoding, bytes } = encodeArtifactData(data);
      expect(decodeArtifactData(encoding, bytes)).toEqual(data);
    }
  });

  it('names where a value is not JSON', () => {
    for (const [data, where] of [
      [{ a: { b: undefined } }, 'data.a.b is undefined'],
      [[1, Number.NaN], 'data[1] is NaN'],
      [{ when: new Date(0) }, 'data.when is a Date'],
      [{ n: 1n }, 'data.n is a bigint'],
    ] as const) {
      expect(() => encodeArtifactData(data as never)).toThrow(ToolctxError);
      expect(() => encodeArtifactData(data as never)).toThrow(where);
    }
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => encodeArtifactData(cycle as never)).toThrow('data.self is a cycle');
  });
});
