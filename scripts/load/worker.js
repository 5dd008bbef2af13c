// The Worker `pnpm load` runs: the example Worker users deploy (packages/edge/src/worker.ts),
// unchanged, plus one route of its own, `GET /__load/storage/:runId`, that answers the size of
// that run's Durable Object database. `ctx.storage.sql.databaseSize` is the figure Cloudflare
// bills a SQLite-backed object's stored data on; a file size under --persist-to would also count
// local SQLite's write-ahead log, which no deployment pays for.
import example, {
  ArtifactAdmissions,
  RunHost as ExampleRunHost,
  IdentityRuns,
} from '../../packages/edge/src/worker.ts';

export class RunHost extends ExampleRunHost {
  /** Bytes of this object's SQLite database. */
  storageBytes() {
    return this.ctx.storage.sql.databaseSize;
  }
}

export { ArtifactAdmissions, IdentityRuns };

const route = /^\/__load\/storage\/([\w-]+)$/;

export default {
  ...example,
  async fetch(request, env, ctx) {
    const match = route.exec(new URL(request.url).pathname);
    if (!match) return example.fetch(request, env, ctx);
    if (request.headers.get('authorization') !== `Bearer ${env.TOOLCTX_TOKEN}`)
      return new Response('unauthorized', { status: 401 });
    const bytes = await env.RUNS.get(env.RUNS.idFromName(match[1])).storageBytes();
    return Response.json({ bytes });
  },
};
