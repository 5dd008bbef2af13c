// `artifactFieldProblem` is the one check every store's put goes through (describeArtifactStore
// proves each store refuses alike); this pins its messages and the documented example.
import { describe, expect, it } from 'vitest';
import { artifactFieldLimits } from './field-limits.js';
import { artifactFieldProblem } from './fields.js';

describe('artifactFieldProblem', () => {
  it('names the field, the character and where it is', () => {
    expect(artifactFieldProblem('mediaType', 'text/html\r\nx-evil: 1')).toBe(
      'Artifact "mediaType" holds a control character (U+000D) at index 9; it must be text an HTTP header can carry. Remove the character.',
    );
    expect(artifactFieldProblem('label', 'ok\uD83D')).toContain('a lone surrogate (U+D83D) at index 2');
    expect(artifactFieldProblem('kind', 'k\u0000')).toContain('"kind" holds a control character (U+0000)');
  });

  it('names the limit, and takes a field exactly at it', () => {
    expect(artifactFieldLimits).toEqual({ kind: 256, label: 256, mediaType: 256 });
    expect(artifactFieldProblem('label', 'x'.repeat(257))).toBe(
      'Artifact "label" is 257 characters long; the limit is 256 (artifactFieldLimits.label). Shorten it.',
    );
    expect(artifactFieldProblem('label', 'x'.repeat(256))).toBeUndefined();
    // A surrogate pair is two code units, as String.length counts.
    expect(artifactFieldProblem('label', '😀'.repeat(128))).toBeUndefined();
    expect(artifactFieldProblem('label', '😀'.repeat(129))).toContain('258 characters');
  });

  it.each([
    'text/html',
    'image/svg+xml',
    'text/plain; charset=utf-8',
    'text/plain;charset=utf-8;format=flowed',
    'text/plain; charset="utf-8"',
    'application/x-www-form-urlencoded',
    "application/vnd.a!#$%&'*+.^_`|~-b",
    'multipart/mixed; boundary="\\"quoted\\" and ;="',
  ])('takes the media type %j', (value) => {
    expect(artifactFieldProblem('mediaType', value)).toBeUndefined();
  });

  it.each([
    '',
    'html',
    'text/html/x',
    'text/html; =x',
    'text/html; a=',
    'text/html; a="x\\',
    'text/html;\tcharset=utf-8',
    'text/(html)',
    'text/html; a=é',
  ])('refuses the media type %j', (value) => {
    expect(artifactFieldProblem('mediaType', value)).toMatch(
      /^Artifact "mediaType" (must be a media type|holds)/,
    );
  });

  it('is linear on a long run of parameters (no backtracking to exploit)', () => {
    const hostile = `a/b${'; a=b'.repeat(40)};`.padEnd(256, ';');
    const started = performance.now();
    for (let i = 0; i < 1_000; i++) artifactFieldProblem('mediaType', `${hostile.slice(0, 255)}"`);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
