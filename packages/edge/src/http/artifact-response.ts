import type { ArtifactMeta, ArtifactScope, ArtifactStore } from '@toolctx/core';
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
    return new Response(null, { headers: headersOf(meta) });
  }
  if (store.getStream) {
    const found = await store.getStream(scope, ref);
    if (!found) throw missing();
    return new Response(found.body, { headers: headersOf(found.meta) });
  }
  const found = await store.get(scope, ref);
  if (!found) throw missing();
  const { meta, data } = found;
  const body = data instanceof Uint8Array ? data : typeof data === 'string' ? data : JSON.stringify(data);
  return new Response(body, { headers: headersOf(meta) });
}

function headersOf(meta: ArtifactMeta): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': meta.mediaType,
    'content-length': String(meta.bytes),
    etag: `"${meta.digest}"`,
    'last-modified': new Date(meta.createdAt).toUTCString(),
    'x-toolctx-artifact-kind': encodeURIComponent(meta.kind),
    'cache-control': 'private, no-store',
  };
  if (meta.label) {
    headers['content-disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(meta.label)}`;
  }
  return headers;
}

function missing(): HttpError {
  return new HttpError(404, 'not-found', 'There is no such artifact for this identity.');
}
