// The baseline of the cold-start benchmark (cold-start.mjs): the smallest hono Worker, one route,
// with empty classes for the example Worker's Durable Object bindings, so both start with the same
// bindings and the difference between them is the script's.
import { DurableObject } from 'cloudflare:workers';
import { Hono } from 'hono';

export class RunHost extends DurableObject {}
export class ArtifactAdmissions extends DurableObject {}
export class IdentityState extends DurableObject {}

const app = new Hono();
app.get('/', (c) => c.text('ok'));

export default app;
