// A Node module hook: `cloudflare:workers` resolves to empty base classes, enough to import
// @toolctx/edge outside workerd (nothing here constructs them).
const stub = 'data:text/javascript,export class DurableObject {} export class WorkerEntrypoint {}';

export async function resolve(specifier, context, next) {
  if (specifier === 'cloudflare:workers') return { url: stub, shortCircuit: true };
  return next(specifier, context);
}
