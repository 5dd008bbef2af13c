import { describe, expect, it } from 'vitest';
import type { ArtifactMeta } from '../artifacts/types.js';
import { SavedArtifacts } from './saved-artifacts.js';

const meta = (ref: string): ArtifactMeta => ({
  ref,
  kind: 'part',
  mediaType: 'text/plain',
  bytes: 1,
  createdAt: 0,
  digest: 'sha256-x',
  origin: { toolCallId: 'x' },
  encoding: 'text',
});
const refsOf = (saved: { ref: string }[] | undefined) => saved?.map(({ ref }) => ref);
const open = () => true;
const settled = () => false;

describe('SavedArtifacts', () => {
  it('names the first 20 still there, when a call saved more and deleted some of the first', () => {
    const saved = new SavedArtifacts();
    for (let i = 0; i < 25; i++) saved.note('c', meta(`a${i}`));
    for (let i = 0; i < 5; i++) saved.note('c', `a${i}`);
    expect(refsOf(saved.take('c', undefined, open))).toEqual(
      Array.from({ length: 20 }, (_, i) => `a${i + 5}`),
    );
  });

  it('names no artifact another call deleted, a child or not', () => {
    const saved = new SavedArtifacts();
    saved.note('parent', meta('a'));
    saved.note('parent', meta('b'));
    saved.note('other', meta('c'));
    saved.note('child', 'a');
    saved.note('child', 'c');
    expect(refsOf(saved.take('parent', undefined, open))).toEqual(['b']);
    expect(saved.take('other', undefined, open)).toBeUndefined();
  });

  it("gives a child's to its parent in flight, and holds nothing for a parent that settled", () => {
    const saved = new SavedArtifacts();
    saved.note('child', meta('a'));
    expect(refsOf(saved.take('child', 'parent', open))).toEqual(['a']);
    saved.note('late', meta('b'));
    expect(refsOf(saved.take('late', 'parent', settled))).toEqual(['b']);
    // The parent's record, filed now, names only what was saved while it was in flight.
    expect(refsOf(saved.take('parent', undefined, open))).toEqual(['a']);
    expect(saved.held).toBe(0);
  });
});
