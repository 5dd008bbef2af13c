// A Worker for the SQLite artifact store's tests only: a Durable Object with SQLite storage, in
// which each test case makes its store (through `runInDurableObject`).
import { DurableObject } from 'cloudflare:workers';

export class SqliteArtifactsObject extends DurableObject {}

export interface StoreSuiteEnv {
  SQLITE_ARTIFACTS: DurableObjectNamespace<SqliteArtifactsObject>;
}

export default {
  fetch: () => new Response('The store suite Worker serves no requests.', { status: 404 }),
} satisfies ExportedHandler<StoreSuiteEnv>;
