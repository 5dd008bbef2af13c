import type { Env } from '@toolctx/edge';
import { Hono } from 'hono';

export { RunHost } from '@toolctx/edge';

const app = new Hono<{ Bindings: Env & { ASSETS: Fetcher } }>();

app.get('/health', (c) => c.json({ ok: true }));

export default app satisfies ExportedHandler<Env>;
