// The Worker `pnpm load` runs: the example Worker users deploy (packages/edge/src/worker.ts),
// unchanged, plus two routes of its own that answer the size of a Durable Object's database:
// `GET /__load/storage/:runId` that run's, `GET /__load/identity-storage` the counter of the
// caller's runs. `ctx.storage.sql.databaseSize` is the figure Cloudflare bills a SQLite-backed
// object's stored data on; a file size under --persist-to would also count local SQLite's
// write-ahead log, which no deployment pays for.

import { authenticate } from '../../packages/edge/src/example/token-auth.ts';
import example, {
  ArtifactAdmissions,
  IdentityState as ExampleIdentityState,
  RunHost as ExampleRunHost,
} from '../../packages/edge/src/worker.ts';

export class RunHost extends ExampleRunHost {
  /** Bytes of this object's SQLite database. */
  storageBytes() {
    return this.ctx.storage.sql.databaseSize;
  }
}

export class IdentityState extends ExampleIdentityState {
  /** Bytes of this object's SQLite database. */
  storageBytes() {
    return this.ctx.storage.sql.databaseSize;
  }
}

export { ArtifactAdmissions };

const route = /^\/__load\/storage\/([\w-]+)$/;
// The counter of the caller's runs, named as identityStateOf names it (the example Worker's tenant is `default`).
const identityRoute = '/__load/identity-storage';

export default {
  ...example,
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    const match = route.exec(pathname);
    if (!match && pathname !== identityRoute) return example.fetch(request, env, ctx);
    // The example Worker's own authentication: the principal is the token's.
    const identity = await authenticate(request, env);
    if (!identity || 'refused' in identity) return new Response('unauthorized', { status: 401 });
    const principal = identity.principal;
    const stub = match
      ? env.RUNS.get(env.RUNS.idFromName(match[1]))
      : env.IDENTITY_STATE.get(env.IDENTITY_STATE.idFromName(JSON.stringify(['default', principal])));
    return Response.json({ bytes: await stub.storageBytes() });
  },
};
