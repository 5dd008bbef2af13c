import { ToolctxError } from '../errors.js';
import { artifactFieldLimits } from './field-limits.js';

/**
 * The fields every store checks with {@link artifactFieldProblem}.
 *
 * @experimental The kernel and its options may still change.
 */
export type ArtifactTextField = keyof typeof artifactFieldLimits;

// RFC 9110 §8.3.1 in printable ASCII: type "/" subtype, then `; name=value` parameters, a value a
// token or a quoted string. Tabs are control characters here (refused before this runs), and
// obs-text (0x80–0xFF) is left out: a string past U+00FF cannot be a header at all.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[ !#-\\[\\]-~]|\\\\[ -~])*"';
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?: *; *(?:${TOKEN}=(?:${TOKEN}|${QUOTED}))?)*$`);

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/** The first character no header can carry: a control character (C0, DEL, C1) or a lone surrogate. */
function unsafeCharacter(value: string): string | undefined {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
      return `a control character (${hex(code)}) at index ${index}`;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = value.charCodeAt(index + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) index++;
      else return `a lone surrogate (${hex(code)}) at index ${index}, half of a UTF-16 pair and not text`;
    }
  }
  return undefined;
}

/**
 * Why a kind, label or media type cannot be kept, or `undefined` when it can: longer than
 * {@link artifactFieldLimits}, holding a control character or a lone surrogate (which no header
 * can carry, and `encodeURIComponent` throws on), or, for `mediaType`, not a media type
 * (`type/subtype`, then optional `; name=value` parameters, in ASCII). Stores refuse such a put
 * through `createArtifactMeta`; a door can use it to tell a meta kept before these checks.
 *
 * @experimental The kernel and its options may still change.
 * @example
 * ```ts
 * import { artifactFieldProblem } from '@toolctx/core/ports';
 * artifactFieldProblem('mediaType', 'text/html\r\nx-evil: 1'); // 'Artifact "mediaType" holds a control character (U+000D) at index 9…'
 * artifactFieldProblem('label', 'Q3 — draft.txt'); // undefined
 * ```
 */
export function artifactFieldProblem(field: ArtifactTextField, value: string): string | undefined {
  const limit = artifactFieldLimits[field];
  if (value.length > limit) {
    return `Artifact "${field}" is ${value.length} characters long; the limit is ${limit} (artifactFieldLimits.${field}). Shorten it.`;
  }
  const unsafe = unsafeCharacter(value);
  if (unsafe !== undefined) {
    return `Artifact "${field}" holds ${unsafe}; it must be text an HTTP header can carry. Remove the character.`;
  }
  if (field === 'mediaType' && !MEDIA_TYPE.test(value)) {
    return `Artifact "mediaType" must be a media type such as "text/html" or "text/plain; charset=utf-8" (type/subtype, then optional ;name=value parameters, in ASCII), got ${JSON.stringify(value)}.`;
  }
  return undefined;
}

/** Throws `invalid-argument` naming the field, what is wrong and the limit, unless the field can be kept. */
export function assertArtifactField(field: ArtifactTextField, value: string): void {
  const problem = artifactFieldProblem(field, value);
  if (problem !== undefined) {
    throw new ToolctxError('invalid-argument', problem, {
      details: { field, limit: artifactFieldLimits[field], length: value.length },
    });
  }
}
