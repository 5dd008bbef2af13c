/**
 * Paths a model might send that must never reach outside a workspace root, each with what it
 * tries: `describeWorkspace` checks that `resolve` and every verb refuse all of them. Reuse it for
 * a platform's own path checks.
 *
 * @example
 * ```ts
 * import { hostilePaths } from '@toolctx/core/testing';
 * for (const [what, path] of hostilePaths) console.log(what, JSON.stringify(path));
 * ```
 */
export const hostilePaths: ReadonlyArray<readonly [what: string, path: string]> = [
  ['.. alone', '..'],
  ['.. first', '../x'],
  ['.. in the middle, escaping', 'a/../../x'],
  ['.. last', 'a/..'],
  ['.. that would stay inside (refused by rule)', 'a/../b'],
  ['../..', '../..'],
  ['an absolute path', '/etc/passwd'],
  ['the root /', '/'],
  ['a double-slash absolute path', '//server/share'],
  ['a UNC path', '\\\\server\\share'],
  ['backslash ..', 'a\\..\\..\\b'],
  ['a plain backslash', 'a\\b'],
  ['%2e%2e/x', '%2e%2e/x'],
  ['%2e%2e%2fx', '%2e%2e%2fx'],
  ['..%2fx', '..%2fx'],
  ['double-encoded %252e%252e%252fx', '%252e%252e%252fx'],
  ['an encoded separator a/%2F/b', 'a/%2F/b'],
  ['an encoded backslash', 'a%5cb'],
  ['NUL', 'x\u0000y'],
  ['a newline', 'x\ny'],
  ['DEL', 'a\u007fb'],
  ['a bidi override', 'a/\u202egnp.exe'],
  ['a drive letter with backslash', 'C:\\x'],
  ['a drive letter with slash', 'c:/x'],
  ['a URL scheme', 'file:///etc/passwd'],
  ['the empty path', ''],
  ['. alone', '.'],
  ['./ (the root)', './'],
  ['a 5000-character path', 'a'.repeat(5_000)],
  ['....//', '....//'],
  ['... alone', '...'],
  ['.. with a trailing space (Windows drops it)', 'a/.. /x'],
  ['.. with a leading space (a URL parser trims it)', ' ../x'],
  ['unicode one-dot leaders', '\u2024\u2024/x'],
  ['fullwidth dots', '\uff0e\uff0e/x'],
  ['a fullwidth solidus', 'a\uff0fb'],
  ['~ home', '~/x'],
];
