import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';

describe('the Worker inside workerd', () => {
  it('answers GET /health', async () => {
    const response = await exports.default.fetch('http://toolctx.test/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('reads back what it wrote to KV', async () => {
    await env.ARTIFACT_META.put('k', 'v', { metadata: { kind: 'text' } });
    const { value, metadata } = await env.ARTIFACT_META.getWithMetadata('k');
    expect(value).toBe('v');
    expect(metadata).toEqual({ kind: 'text' });
  });

  it('reads back what it wrote to R2, with custom metadata', async () => {
    await env.ARTIFACTS.put('obj', new Uint8Array([1, 2, 3]), { customMetadata: { kind: 'bytes' } });
    const object = await env.ARTIFACTS.get('obj');
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect(object!.customMetadata).toEqual({ kind: 'bytes' });
  });

  it('reaches the run Durable Object', async () => {
    const stub = env.RUNS.get(env.RUNS.idFromName('run-1'));
    expect(await stub.ping()).toBe('pong');
  });
});
