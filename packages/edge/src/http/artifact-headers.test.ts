// `GET /artifacts/:ref` cannot attack the page that links it: nosniff and a CSP that runs nothing
// on every artifact, active types only as attachments, and headers made safe from any meta, even
// one a store kept before puts were checked (packages/edge/README.md, "Artifacts").
import { env } from 'cloudflare:workers';
import { type ArtifactMeta, type ArtifactStore, artifactScope, createRuntime } from '@toolctx/core';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { scopeKey } from '@toolctx/core/ports';
import { describe, expect, it } from 'vitest';
import { createKvR2ArtifactStore } from '../stores/index.js';
import { authenticate } from '../test-utils/server.js';
import { createToolServer } from './create-tool-server.js';

const ana = { tenant: 'acme', principal: 'ana' };
const scope = artifactScope(ana);

function serverOver(store: ArtifactStore) {
  const runtime = createRuntime({ tools: [], artifacts: store });
  const app = createToolServer({ runtimeFor: () => runtime, authenticate });
  return (ref: string, method = 'GET') =>
    app.request(`/artifacts/${ref}`, { method, headers: { authorization: 'Bearer ana' } });
}

const runsNothing = "default-src 'none'; sandbox";

describe('GET /artifacts/:ref: headers that cannot attack the page', () => {
  it.each([
    ['text/html; charset=utf-8', '<script>alert(document.cookie)</script>'],
    ['application/xhtml+xml', '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>'],
    ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
    ['text/xml', '<?xml-stylesheet href="x.xsl"?><a/>'],
    ['application/rss+xml', '<rss/>'],
    ['text/javascript', 'alert(1)'],
    ['application/ecmascript', 'alert(1)'],
    ['application/pdf', '%PDF-1.7'],
    ['application/octet-stream', '<script>alert(1)</script>'],
    ['application/x-unheard-of', '<script>alert(1)</script>'],
  ])(
    'serves %s as an attachment named by its ref, with nosniff and a CSP that runs nothing',
    async (mediaType, data) => {
      const store = createMemoryArtifactStore();
      const request = serverOver(store);
      const { ref } = await store.put(scope, { kind: 'page', data, mediaType });
      for (const method of ['GET', 'HEAD']) {
        const got = await request(ref, method);
        expect(got.status).toBe(200);
        expect(got.headers.get('content-type')).toBe(mediaType);
        expect(got.headers.get('x-content-type-options')).toBe('nosniff');
        expect(got.headers.get('content-security-policy')).toBe(runsNothing);
        expect(got.headers.get('content-disposition')).toBe(
          `attachment; filename="${ref}"; filename*=UTF-8''${ref}`,
        );
      }
    },
  );

  it.each([
    'text/plain; charset=utf-8',
    'text/csv',
    'application/json',
    'image/png',
    'IMAGE/JPEG',
    'video/mp4',
  ])('serves %s inline when it has no label, still with nosniff and the CSP', async (mediaType) => {
    const store = createMemoryArtifactStore();
    const { ref } = await store.put(scope, { kind: 'k', data: 'x', mediaType });
    const got = await serverOver(store)(ref);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-disposition')).toBeNull();
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-security-policy')).toBe(runsNothing);
  });

  it('names the download by its label, with what could mislead or escape replaced', async () => {
    const store = createMemoryArtifactStore();
    const request = serverOver(store);
    const names: [string, string, string][] = [
      // label, the ASCII filename, the UTF-8 filename* decoded
      ['notes.txt', 'notes.txt', 'notes.txt'],
      ['Q3 — “draft”.html', 'Q3 _ _draft_.html', 'Q3 — “draft”.html'],
      ['invoice\u202Efdp.exe', 'invoice_fdp.exe', 'invoice_fdp.exe'],
      ['../../etc/passwd', '_.._etc_passwd', '_.._etc_passwd'],
      ['a"; filename="evil.html', 'a_; filename=_evil.html', 'a_; filename=_evil.html'],
      ['C:\\x\\y.bat', 'C__x_y.bat', 'C__x_y.bat'],
      ['line\u2028break.txt', 'line_break.txt', 'line_break.txt'],
      ['...', '', ''],
    ];
    for (const [label, ascii, utf8] of names) {
      const { ref } = await store.put(scope, { kind: 'k', data: 'x', mediaType: 'text/html', label });
      const disposition = (await request(ref)).headers.get('content-disposition') ?? '';
      const [, filename, encoded] =
        /^attachment; filename="([^"]*)"; filename\*=UTF-8''(.*)$/.exec(disposition) ?? [];
      expect(filename, label).toBe(ascii || ref);
      expect(decodeURIComponent(encoded ?? ''), label).toBe(utf8 || ref);
    }
  });

  it('serves a meta kept in KV before puts were checked (CR LF, lone surrogates, overlong) with safe headers, never a 500', async () => {
    const prefix = `legacy-${crypto.randomUUID()}/`;
    const store = createKvR2ArtifactStore({ kv: env.ARTIFACT_META, bucket: env.ARTIFACTS, prefix });
    const request = serverOver(store);
    const { ref } = await store.put(scope, { kind: 'note', data: '<svg onload="alert(1)"/>', label: 'ok' });
    // What an older store wrote, straight into its KV ref key and listing metadata.
    const refKey = `${prefix}ref/${scopeKey(scope)}/${ref}`;
    const kept = (await env.ARTIFACT_META.get<ArtifactMeta>(refKey, 'json')) as ArtifactMeta;
    const legacy: ArtifactMeta = {
      ...kept,
      kind: 'note\uD800\r\nset-cookie: a=b',
      label: `evil\uDC00\r\n\u0000${'l'.repeat(5_000)}.svg`,
      mediaType: 'image/svg+xml\r\nx-evil: 1',
    };
    await env.ARTIFACT_META.put(refKey, JSON.stringify(legacy));
    const listing = (await env.ARTIFACT_META.list({ prefix: `${prefix}list/` })).keys[0]?.name ?? '';
    // KV keeps 1 KiB of metadata: a meta this long was listed partial, and read from its ref key.
    const partial = { ref, bytes: legacy.bytes, createdAt: legacy.createdAt, partial: true };
    await env.ARTIFACT_META.put(listing, JSON.stringify(legacy), { metadata: partial });

    for (const method of ['GET', 'HEAD']) {
      const got = await request(ref, method);
      expect(got.status, method).toBe(200);
      expect(got.headers.get('content-type')).toBe('application/octet-stream');
      expect(got.headers.get('x-evil')).toBeNull();
      expect(got.headers.get('set-cookie')).toBeNull();
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.headers.get('content-security-policy')).toBe(runsNothing);
      expect(got.headers.get('x-toolctx-artifact-kind')).toBe(
        encodeURIComponent('note\uFFFD\r\nset-cookie: a=b'),
      );
      const disposition = got.headers.get('content-disposition') ?? '';
      expect(disposition).toMatch(
        /^attachment; filename="evil_{4}l+"; filename\*=UTF-8''evil%EF%BF%BD_{3}l+$/,
      );
      expect(disposition.length).toBeLessThan(600);
      if (method === 'GET') expect(await got.text()).toBe('<svg onload="alert(1)"/>');
    }
    const list = await createToolServer({
      runtimeFor: () => createRuntime({ tools: [], artifacts: store }),
      authenticate,
    }).request('/artifacts', { headers: { authorization: 'Bearer ana' } });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { artifacts: ArtifactMeta[] }).artifacts[0]?.mediaType).toBe(
      legacy.mediaType,
    );
  });
});
