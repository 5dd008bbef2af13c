import type { RunHost } from './run-host.js';

/** The bindings the toolctx Worker expects, as declared in its `wrangler.jsonc`. */
export interface Env {
  /** KV namespace holding artifact metadata. */
  ARTIFACT_META: KVNamespace;
  /** R2 bucket holding artifact bytes. */
  ARTIFACTS: R2Bucket;
  /** One Durable Object per run. */
  RUNS: DurableObjectNamespace<RunHost>;
}
