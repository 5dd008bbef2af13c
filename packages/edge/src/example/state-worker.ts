// The example Worker (src/worker.ts), unchanged, plus two routes that show what its artifact store
// holds underneath, for test/worker/crash-mid-put.test.ts under `wrangler dev` (wrangler.state.jsonc);
// never deployed. `GET /__state/artifacts`: every R2 object key and KV key name under the store's
// prefix, and each put's mark with its multipart upload id. `GET /__state/upload?key=&uploadId=`:
// whether that multipart upload is still open (it takes a 1-byte part), which no R2 listing shows.
import type { Env } from '../env.js';
import example, { ArtifactAdmissions, IdentityRuns, RunHost } from '../worker.js';
import { authenticate } from './token-auth.js';

export { ArtifactAdmissions, IdentityRuns, RunHost };

// The prefix the example Worker's store uses (createKvR2ArtifactStore's default).
const PREFIX = 'artifacts/';

async function objectKeys(bucket: R2Bucket): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list(cursor ? { prefix: PREFIX, cursor } : { prefix: PREFIX });
    keys.push(...page.objects.map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
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

async function state(env: Env): Promise<Response> {
  const [objects, keys] = await Promise.all([objectKeys(env.ARTIFACTS), keyNames(env.ARTIFACT_META)]);
  const marks = await Promise.all(
    keys
      .filter((name) => name.startsWith(`${PREFIX}pending/`))
      .map(async (name) => ({ name, ...(await env.ARTIFACT_META.get<object>(name, 'json')) })),
  );
  return Response.json({ objects, keys, marks });
}

async function uploadOpen(env: Env, key: string, uploadId: string): Promise<Response> {
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
} satisfies ExportedHandler<Env>;
