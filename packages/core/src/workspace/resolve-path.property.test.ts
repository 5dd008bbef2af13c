import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolctxError } from '../errors.js';
import { hostilePaths } from '../testing/index.js';
import { createMemoryWorkspace } from './memory-workspace.js';
import { withWorkspace } from './with-workspace.js';

// Path pieces a model might combine: separators of every spelling, dots, escapes, controls,
// drive letters, compatibility characters, and ordinary names.
const piece = fc.oneof(
  fc.constantFrom(
    '/',
    '\\',
    '.',
    '..',
    '...',
    '%2e',
    '%2E%2e',
    '%2f',
    '%5C',
    '%25',
    '%00',
    '\u0000',
    '\n',
    '\u202e',
    'C:',
    'file:',
    '~',
    '\uff0e',
    '\u2024',
    '\uff0f',
    '\u2215',
    '\ufe52',
    'a',
    'notes',
    'todo.md',
    ' ',
    '👨‍👩‍👧',
  ),
  fc.string({ unit: 'binary', maxLength: 3 }),
);
const rawPath = fc.oneof(
  { weight: 4, arbitrary: fc.array(piece, { maxLength: 10 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.constantFrom(...hostilePaths.map(([, path]) => path)) },
);

/** Where a path lands under `root` once a URL parser (which decodes %2e and `\`) reads it. */
const landing = (root: string, path: string) => new URL(path, `file://${root}`).pathname;

describe('workspace resolve() never leaves the root (property)', () => {
  const plain = createMemoryWorkspace({ root: '/ws' });
  const nested = withWorkspace(plain, 'runs/run_1');

  it('either refuses with policy-refused, or returns a relative path that stays inside', () => {
    fc.assert(
      fc.property(rawPath, (raw) => {
        let resolved: string;
        try {
          resolved = plain.resolve(raw);
        } catch (error) {
          expect(error).toBeInstanceOf(ToolctxError);
          expect((error as ToolctxError).kind).toBe('policy-refused');
          return;
        }
        expect(resolved).not.toBe('');
        expect(resolved.startsWith('/')).toBe(false);
        for (const segment of resolved.split('/')) {
          expect(['', '.', '..']).not.toContain(segment);
          expect(segment.normalize('NFKC')).not.toMatch(/^\.+$|[/\\:]/);
        }
        expect(resolved).not.toMatch(/\\|%(2f|5c|2e|25)/i);
        expect(resolved.includes('\u0000')).toBe(false);
        // Resolving again changes nothing, and a URL parser puts it under the root.
        expect(plain.resolve(resolved)).toBe(resolved);
        expect(landing('/ws/', resolved).startsWith('/ws/')).toBe(true);
        expect(landing('/ws/', encodeURI(resolved)).startsWith('/ws/')).toBe(true);
        // A re-rooted workspace resolves relative to its own root, and stays under it.
        expect(nested.resolve(raw)).toBe(resolved);
        expect(landing(`${nested.root}/`, resolved).startsWith('/ws/runs/run_1/')).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });
});
