import type { ArtifactMeta, ArtifactScope, ArtifactStore } from '@toolctx/core';
import { artifactFieldProblem } from '@toolctx/core/ports';
import { HttpError } from './http-error.js';

/**
 * An artifact as an HTTP response, read in the caller's own scope: another scope's ref is a 404
 * exactly like a ref that never existed. Streams when the store can.
 */
export async function artifactResponse(
  store: ArtifactStore,
  scope: ArtifactScope,
  ref: string,
  headOnly: boolean,
): Promise<Response> {
  if (headOnly) {
    const meta = await store.head(scope, ref);
    if (!meta) throw missing();
    return new Response(null, { headers: artifactHeaders(meta) });
  }
  if (store.getStream) {
    const found = await store.getStream(scope, ref);
    if (!found) throw missing();
    return new Response(found.body, { headers: artifactHeaders(found.meta) });
  }
  const found = await store.get(scope, ref);
  if (!found) throw missing();
  const { meta, data } = found;
  const body = data instanceof Uint8Array ? data : typeof data === 'string' ? data : JSON.stringify(data);
  return new Response(body, { headers: artifactHeaders(meta) });
}

// Shown in the browser when opened: types a browser displays without running anything of theirs.
// Every other type is an attachment, above all the active ones: HTML, XHTML, SVG, any XML (which
// can carry XHTML or XSLT), JavaScript and ECMAScript, PDF, and every type not on this list.
const INLINE = new Set([
  'text/plain',
  'text/csv',
  'application/json',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'video/mp4',
  'video/ogg',
  'video/webm',
]);

// Whatever an artifact holds, a document made from it loads nothing and runs nothing, even one a
// browser opens against the disposition.
const CSP = "default-src 'none'; sandbox";

/** The headers an artifact is served with; safe whatever the meta holds, even one kept before the put checks. */
export function artifactHeaders(meta: ArtifactMeta): Record<string, string> {
  // Refused at put since artifactFieldProblem; a meta kept before that is served as opaque bytes.
  const mediaType =
    artifactFieldProblem('mediaType', meta.mediaType) === undefined
      ? meta.mediaType
      : 'application/octet-stream';
  const essence = mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
  const headers: Record<string, string> = {
    'content-type': mediaType,
    'content-length': String(meta.bytes),
    etag: `"${meta.digest}"`,
    'last-modified': new Date(meta.createdAt).toUTCString(),
    'x-toolctx-artifact-kind': encodeURIComponent(wellFormed(meta.kind.slice(0, 256))),
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': CSP,
  };
  if (meta.label || !INLINE.has(essence)) headers['content-disposition'] = attachment(meta);
  return headers;
}

// C0, DEL and C1 controls; the Arabic letter mark, LRM, RLM, line and paragraph separators, the
// bidi embeddings, overrides and isolates; path separators and what Windows refuses in a name.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const NOT_IN_FILE_NAMES = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"*/:<>?\\|]/g;

/**
 * `attachment` with the label (or the ref) as a file name that cannot mislead or escape: control
 * characters, bidirectional overrides (which can show `exe.txt` for `txt.exe`), line separators,
 * path separators and the characters file systems refuse become `_`; an ASCII `filename` for old
 * clients, the UTF-8 `filename*` (RFC 6266) for the rest.
 */
function attachment(meta: ArtifactMeta): string {
  const name =
    wellFormed((meta.label ?? '').slice(0, 256))
      .replace(NOT_IN_FILE_NAMES, '_')
      .replace(/^[\s.]+|[\s.]+$/g, '') || meta.ref;
  const ascii = name.replace(/[^\u0020-\u007e]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Lone surrogates as U+FFFD, so encodeURIComponent cannot throw on a meta kept before the put checks. */
function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

function missing(): HttpError {
  return new HttpError(404, 'not-found', 'There is no such artifact for this identity.');
}
