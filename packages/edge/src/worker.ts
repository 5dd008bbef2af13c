import { Hono } from 'hono';
import type { Env } from './env.js';

export { RunHost } from './run-host.js';

const app = new Hono<{ Bindings: Env }>();

app.get('/health', (c) => c.json({ ok: true }));

export default app satisfies ExportedHandler<Env>;
