// The example Worker (src/worker.ts), unchanged, plus two routes that show what its artifact store
// holds underneath, for test/worker/crash-mid-put.test.ts under `wrangler dev` (wrangler.state.jsonc);
// never deployed. `GET /__state/artifacts`: every R2 object key and KV key name under the store's
// prefix, and each put's mark (an R2 object under `artifacts/.pending/`) with its multipart upload id. `GET /__state/upload?key=&uploadId=`:
// whether that multipart upload is still open (it takes a 1-byte part), which no R2 listing shows.
import type { ExampleWorkerEnv } from '../env.js';
import { markOf } from '../stores/pending-puts.js';
import example, { ArtifactAdmissions, IdentityState, RunHost } from '../worker.js';
import { authenticate } from './token-auth.js';

export { ArtifactAdmissions, IdentityState, RunHost };

// The prefix the example Worker's store uses (createKvR2ArtifactStore's default).
const PREFIX = 'artifacts/';

async function objects(bucket: R2Bucket): Promise<R2Object[]> {
  const found: R2Object[] = [];
  let cursor: string | undefined;
  do {
    const listing: R2ListOptions & { include: Array<'customMetadata'> } = {
      prefix: PREFIX,
      include: ['customMetadata'],
      ...(cursor ? { cursor } : {}),
    };
    const page = await bucket.list(listing);
    found.push(...page.objects);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return found;
}

async function keyNames(kv: KVNamespace): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await kv.list(cursor ? { prefix: PREFIX, cursor } : { prefix: PREFIX });
    names.push(...page.keys.map((key) => key.name));
    if (page.list_complete) return names;
    cursor = page.cursor;
  }
}

async function state(env: ExampleWorkerEnv): Promise<Response> {
  const [stored, keys] = await Promise.all([objects(env.ARTIFACTS), keyNames(env.ARTIFACT_META)]);
  const marks = stored
    .filter((object) => object.key.startsWith(`${PREFIX}.pending/`))
    .map((object) => ({ name: object.key, ...markOf(object) }));
  return Response.json({ objects: stored.map((object) => object.key), keys, marks });
}

async function uploadOpen(env: ExampleWorkerEnv, key: string, uploadId: string): Promise<Response> {
  try {
    await env.ARTIFACTS.resumeMultipartUpload(key, uploadId).uploadPart(10_000, new Uint8Array(1));
    return Response.json({ open: true });
  } catch {
    return Response.json({ open: false });
  }
}

export default {
  ...example,
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (!url.pathname.startsWith('/__state/')) return example.fetch(request, env, ctx);
    const identity = await authenticate(request, env);
    if (!identity || 'refused' in identity) return new Response('unauthorized', { status: 401 });
    if (url.pathname === '/__state/artifacts') return state(env);
    const key = url.searchParams.get('key');
    const uploadId = url.searchParams.get('uploadId');
    if (url.pathname === '/__state/upload' && key && uploadId) return uploadOpen(env, key, uploadId);
    return new Response('not found', { status: 404 });
  },
} satisfies ExportedHandler<ExampleWorkerEnv>;
