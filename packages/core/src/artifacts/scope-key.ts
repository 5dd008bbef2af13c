import { ToolctxError } from '../errors.js';
import type { ArtifactScope } from './types.js';

const SCOPE_FIELDS = ['tenant', 'principal', 'conversation'] as const;

// Whole well-formed runs, surrogate pairs, or one lone surrogate (which encodeURIComponent rejects).
const TOKENS = /[^\uD800-\uDFFF]+|[\uD800-\uDBFF][\uDC00-\uDFFF]|[\uD800-\uDFFF]/g;
// What encodeURIComponent leaves alone besides [A-Za-z0-9_-]: escaped too, so the only literal
// characters left are [A-Za-z0-9_-], and `~` and `/` are free for the markers below.
const EXTRA = /[!'()*.~]/g;

// Fields made only of these characters encode to themselves; most real ids are such.
const LITERAL = /^[A-Za-z0-9_-]+$/;

const hex = (code: number, width: number): string => code.toString(16).toUpperCase().padStart(width, '0');

/**
 * Encodes one scope field. Why this is injective: a non-empty field becomes a sequence of the
 * tokens `%XX` (percent-encoded UTF-8), `~uXXXX` (a lone UTF-16 surrogate) and single literal
 * characters from [A-Za-z0-9_-]; no token is a prefix of another, so the sequence decodes back
 * uniquely. The empty field is `~` alone, which no non-empty field produces (a literal `~` is
 * always `%7E`). No field's encoding contains `/`, so joining the three with `/` splits back
 * uniquely too.
 */
function encodeField(value: string): string {
  if (value === '') return '~';
  if (LITERAL.test(value)) return value;
  return value.replace(TOKENS, (token) => {
    const code = token.charCodeAt(0);
    if (token.length === 1 && code >= 0xd800 && code <= 0xdfff) return `~u${hex(code, 4)}`;
    return encodeURIComponent(token).replace(EXTRA, (char) => `%${hex(char.charCodeAt(0), 2)}`);
  });
}

/**
 * Throws a clear `invalid-argument` error unless `scope` has three string fields.
 *
 * @example
 * ```ts
 * import { assertArtifactScope } from '@toolctx/core/ports';
 * assertArtifactScope({ tenant: 't', principal: 'p', conversation: 'c' }); // passes
 * ```
 */
export function assertArtifactScope(scope: unknown): asserts scope is ArtifactScope {
  if (scope === null || typeof scope !== 'object') {
    throw new ToolctxError(
      'invalid-argument',
      `An artifact scope must be an object { tenant, principal, conversation }, got ${scope === null ? 'null' : typeof scope}. Compose it from the run's identity.`,
    );
  }
  for (const field of SCOPE_FIELDS) {
    const value = (scope as Record<string, unknown>)[field];
    if (typeof value !== 'string') {
      throw new ToolctxError(
        'invalid-argument',
        `Artifact scope field "${field}" must be a string (use '' when it is unknown), got ${value === null ? 'null' : typeof value}.`,
        { details: { field } },
      );
    }
  }
}

/**
 * One string per scope, injective: two scopes give the same key only if all three fields are
 * equal. Each field is percent-encoded (also `.`, `!`, `~`, `*`, `'`, `(`, `)`), an empty field is
 * written `~`, and the three are joined with `/`, which no encoded field contains. So
 * `{ tenant: 'a/b', principal: 'c' }` and `{ tenant: 'a', principal: 'b/c' }` never meet, and a
 * key is safe as a path or a KV prefix (no `.` or `..` segment can appear).
 *
 * @example
 * ```ts
 * import { scopeKey } from '@toolctx/core/ports';
 * scopeKey({ tenant: 'acme', principal: 'a/b', conversation: '' }); // 'acme/a%2Fb/~'
 * ```
 */
export function scopeKey(scope: ArtifactScope): string {
  assertArtifactScope(scope);
  return `${encodeField(scope.tenant)}/${encodeField(scope.principal)}/${encodeField(scope.conversation)}`;
}
