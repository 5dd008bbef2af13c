import { ToolctxError } from '../errors.js';

const MAX_PATH_BYTES = 1024;
// C0 controls (NUL included), DEL, C1 controls, and bidi overrides that can disguise a name.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// Percent-encoded `/`, `\`, `.`, `:`, `%` (so double encoding too) and control bytes.
const ENCODED = /%(2f|5c|2e|3a|25|[01][0-9a-f]|7f)/i;
// Dots with only whitespace around them: Windows drops trailing dots and spaces from a name, and
// a URL parser trims the ends of its input, so `.. ` or ` ..` can still read as `..`.
const ONLY_DOTS = /^\s*\.[\s.]*$/;

function refuse(raw: unknown, problem: string, fix: string): never {
  const shown =
    typeof raw === 'string' ? JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw) : typeof raw;
  throw new ToolctxError('policy-refused', `The path ${shown} was refused: ${problem}. ${fix}`, {
    details: { problem },
  });
}

/**
 * Proves that a model-supplied path stays inside the workspace root, and returns it normalised:
 * relative, `/`-separated, without `.` or empty segments (`a/./b//c` → `a/b/c`). Refused with a
 * `policy-refused` error naming the problem: non-strings, empty paths, paths over 1024 UTF-8
 * bytes, control characters (NUL included) and bidi overrides, backslashes, absolute paths,
 * a drive letter or URL scheme (`C:`, `file:`), `~`, percent-encoded separators, dots, colons or
 * percents (`%2F`, `%2e%2e`, `%252F`), and any `..` segment.
 *
 * `..` is refused even where it would stay inside (`a/../b`): a model can always write the
 * normalised path, and a rule without exceptions is easier to prove. Segments made only of dots
 * (`...`), of dots and whitespace (`.. `, ` ..`), and segments whose Unicode compatibility form (NFKC) is dots or holds a separator
 * (`\u2024\u2024`, fullwidth `．．` or `／`) are refused too, so no platform can reinterpret them.
 *
 * @example
 * ```ts
 * import { resolveWorkspacePath } from '@toolctx/core/ports';
 * resolveWorkspacePath('notes/./today//todo.md'); // 'notes/today/todo.md'
 * resolveWorkspacePath('../secrets'); // throws ToolctxError (policy-refused)
 * ```
 */
export function resolveWorkspacePath(raw: string): string {
  if (typeof raw !== 'string')
    refuse(raw, 'a path must be a string', 'Pass a relative path such as "notes/todo.md".');
  if (raw === '') refuse(raw, 'the path is empty', 'Name a file, such as "notes/todo.md".');
  if (new TextEncoder().encode(raw).byteLength > MAX_PATH_BYTES) {
    refuse(raw, `the path is longer than ${MAX_PATH_BYTES} bytes`, 'Use a shorter path.');
  }
  if (CONTROL.test(raw))
    refuse(raw, 'it contains a control character', 'Remove control characters (NUL, newlines, bidi marks).');
  if (raw.includes('\\')) refuse(raw, 'it contains a backslash', 'Separate folders with "/".');
  if (raw.startsWith('/'))
    refuse(raw, 'it is absolute', 'Write it relative to the workspace root, without a leading "/".');
  if (ENCODED.test(raw)) {
    refuse(
      raw,
      'it contains a percent-encoded separator, dot or percent',
      'Write the path plainly, without %-escapes.',
    );
  }
  const segments = raw.split('/');
  if (segments[0]!.includes(':')) {
    refuse(raw, 'it starts with a drive letter or URL scheme', 'Write it relative to the workspace root.');
  }
  if (segments[0] === '~')
    refuse(raw, 'it starts with "~"', 'Write it relative to the workspace root; "~" is not expanded.');
  const kept: string[] = [];
  for (const segment of segments) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') refuse(raw, 'it contains ".."', 'Write the normalised path without "..".');
    // URL parsers and some file systems trim names, so " /x" could read as the absolute "/x".
    if (segment !== segment.trim()) {
      refuse(
        raw,
        `its segment ${JSON.stringify(segment)} starts or ends with whitespace`,
        'Remove the spaces around names.',
      );
    }
    const compat = segment.normalize('NFKC');
    if (ONLY_DOTS.test(segment) || ONLY_DOTS.test(compat) || /[/\\:]/.test(compat)) {
      refuse(
        raw,
        `its segment ${JSON.stringify(segment)} reads as dots or a separator`,
        'Use ordinary file names.',
      );
    }
    kept.push(segment);
  }
  if (kept.length === 0)
    refuse(raw, 'it names the workspace root itself', 'Name a file inside it, such as "notes/todo.md".');
  return kept.join('/');
}
