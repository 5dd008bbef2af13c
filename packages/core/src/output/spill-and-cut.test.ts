import { describe, expect, it } from 'vitest';
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import { utf8Bytes } from './cut-utf8.js';
import { spillAndCut } from './spill-and-cut.js';

const scope = { tenant: 't', principal: 'p', conversation: 'c' };

function boundStore() {
  const artifacts = createMemoryArtifactStore();
  const puts: string[] = [];
  return {
    artifacts,
    puts,
    store: {
      put: async (input: Parameters<typeof artifacts.put>[1]) => {
        puts.push(input.kind);
        return artifacts.put(scope, input);
      },
    },
  };
}

describe('spillAndCut', () => {
  it('returns text that fits unchanged and saves nothing', async () => {
    const { store, puts } = boundStore();
    expect(await spillAndCut({ text: 'é'.repeat(50), budgetBytes: 100, toolName: 't', store })).toEqual({
      content: 'é'.repeat(50),
    });
    expect(puts).toEqual([]);
  });

  it('saves the whole text first, byte-identical, then cuts within the budget with a marker naming the ref', async () => {
    const { store, artifacts } = boundStore();
    const text = `${'line of text 😀 — ünïcode\n'.repeat(4_000)}the end`;
    const result = await spillAndCut({ text, budgetBytes: 2_000, toolName: 'search', store });
    expect(utf8Bytes(result.content)).toBeLessThanOrEqual(2_000);
    expect(result.spilled?.bytes).toBe(utf8Bytes(text));
    const saved = await artifacts.get(scope, result.spilled!.ref);
    expect(saved?.meta).toMatchObject({ kind: 'tool-result/search', bytes: utf8Bytes(text) });
    expect(saved?.meta.mediaType).toMatch(/^text\/plain/);
    expect(Array.from(new TextEncoder().encode(saved?.data as string))).toEqual(
      Array.from(new TextEncoder().encode(text)),
    );
    const kept = text.slice(0, result.content.indexOf('\n… [cut:'));
    expect(text.startsWith(kept)).toBe(true);
    expect(utf8Bytes(kept)).toBe(result.spilled?.keptBytes);
    expect(result.content).toContain(`of ${utf8Bytes(text).toLocaleString('en-US')} bytes shown`);
    expect(result.content).toContain(result.spilled!.ref);
  });

  it('never splits a code point or an emoji grapheme', async () => {
    const family = '👩‍👩‍👧‍👦';
    for (let budget = 120; budget < 200; budget++) {
      const result = await spillAndCut({ text: family.repeat(100), budgetBytes: budget, toolName: 't' });
      const kept = result.content.slice(0, result.content.indexOf('\n… [cut:'));
      expect(kept.length % family.length, `budget ${budget}`).toBe(0);
      expect(utf8Bytes(result.content)).toBeLessThanOrEqual(budget);
    }
  });

  it('without a store says how many bytes were lost', async () => {
    const result = await spillAndCut({ text: 'a'.repeat(10_000), budgetBytes: 500, toolName: 't' });
    expect(result.spilled).toBeUndefined();
    expect(utf8Bytes(result.content)).toBeLessThanOrEqual(500);
    const keptBytes = result.cut!.keptBytes;
    expect(result.content).toContain(`${(10_000 - keptBytes).toLocaleString('en-US')} bytes were lost`);
    expect(result.cut).toEqual({ bytes: 10_000, keptBytes, lostBytes: 10_000 - keptBytes });
  });

  it('falls back to the lost-bytes marker when the spill put fails', async () => {
    const store = { put: async () => Promise.reject(new Error('backend down')) };
    const result = await spillAndCut({ text: 'b'.repeat(5_000), budgetBytes: 300, toolName: 't', store });
    expect(result.spilled).toBeUndefined();
    expect(result.content).toMatch(/bytes were lost \(saving the whole result as an artifact failed\)\]$/);
    expect(utf8Bytes(result.content)).toBeLessThanOrEqual(300);
  });

  it('keeps the whole marker even when the budget is smaller than it', async () => {
    const result = await spillAndCut({ text: 'c'.repeat(1_000), budgetBytes: 5, toolName: 't' });
    expect(result.content.startsWith('\n… [cut: 0 of 1,000 bytes shown')).toBe(true);
    expect(result.cut?.keptBytes).toBe(0);
  });
});
