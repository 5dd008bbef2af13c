import { createRuntime } from '@toolctx/core';
import { createRunHost, type Env } from '@toolctx/edge';
import { Hono } from 'hono';

const runtime = createRuntime({ tools: [] });

/** The run host class bound as `RUNS` in wrangler.jsonc. */
export class RunHost extends createRunHost<Env>(() => runtime) {}

const app = new Hono<{ Bindings: Env & { ASSETS: Fetcher } }>();

app.get('/health', (c) => c.json({ ok: true }));

export default app satisfies ExportedHandler<Env>;
