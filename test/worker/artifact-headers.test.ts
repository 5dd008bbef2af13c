// Artifacts cannot attack the page, where users meet them: the MCP test Worker
// (packages/edge/src/mcp/test-worker.ts) under `wrangler dev`, its HTTP door at /http-artifacts
// over wrangler's local KV and R2. An HTML page and an SVG with script come back as attachments
// with nosniff and a CSP that runs nothing; a label or media type no header can carry is refused
// at save, naming the field (packages/edge/README.md, "Artifacts").
import type { ToolResult } from '@toolctx/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWranglerDev, type WranglerDev } from '../wrangler-dev.js';
import { edgeDir } from './example-worker.js';

let dev: WranglerDev;

beforeAll(async () => {
  dev = await startWranglerDev({ cwd: edgeDir, config: 'src/mcp/wrangler.test.jsonc' });
});
afterAll(() => dev?.stop());

const auth = { authorization: 'Bearer ana' };

async function savePage(args: { text: string; mediaType: string; label?: string }): Promise<ToolResult> {
  const response = await fetch(`${dev.url}/http-artifacts/calls`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ tool: 'save_page', args }),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(500);
  return (await response.json()) as ToolResult;
}

async function refOf(args: { text: string; mediaType: string; label?: string }): Promise<string> {
  const result = await savePage(args);
  if (!result.ok) throw new Error(`save_page failed: ${result.error.message}`);
  return (result.value as { ref: string }).ref;
}

describe('artifacts under wrangler dev: served so they cannot attack the page', () => {
  it('serves an HTML page and an SVG with script as attachments, with nosniff and a CSP that runs nothing', async () => {
    const html = '<!doctype html><script>fetch("/runs",{method:"POST"})</script>';
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"/>';
    const pages = [
      { ref: await refOf({ text: html, mediaType: 'text/html; charset=utf-8' }), body: html, name: '' },
      {
        ref: await refOf({ text: svg, mediaType: 'image/svg+xml', label: 'chart.svg' }),
        body: svg,
        name: 'chart.svg',
      },
    ];
    for (const { ref, body, name } of pages) {
      for (const method of ['GET', 'HEAD']) {
        const got = await fetch(`${dev.url}/http-artifacts/artifacts/${ref}`, { method, headers: auth });
        expect(got.status, `${method} ${ref}`).toBe(200);
        expect(got.headers.get('x-content-type-options')).toBe('nosniff');
        expect(got.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
        const fileName = name || ref;
        expect(got.headers.get('content-disposition')).toBe(
          `attachment; filename="${fileName}"; filename*=UTF-8''${fileName}`,
        );
        expect(await got.text()).toBe(method === 'GET' ? body : '');
      }
    }
  });

  it('refuses at save a label or media type no header can carry, or past its limit, naming the field; never a 500', async () => {
    const refused = [
      [
        { text: 'x', mediaType: 'text/plain', label: 'a\r\nset-cookie: b=c' },
        '"label" holds a control character',
      ],
      [{ text: 'x', mediaType: 'text/plain', label: 'half \uD800' }, '"label" holds a lone surrogate'],
      [{ text: 'x', mediaType: 'text/html\r\nx-evil: 1' }, '"mediaType" holds a control character'],
      [{ text: 'x', mediaType: 'html' }, '"mediaType" must be a media type'],
      [{ text: 'x', mediaType: 'text/plain', label: 'l'.repeat(257) }, 'the limit is 256'],
    ] as const;
    for (const [args, message] of refused) {
      const result = await savePage(args);
      expect(result, JSON.stringify(args)).toMatchObject({ ok: false, error: { kind: 'invalid-argument' } });
      if (!result.ok) expect(result.error.message).toContain(message);
    }
    const listed = await fetch(`${dev.url}/http-artifacts/artifacts?limit=100`, { headers: auth });
    expect(listed.status).toBe(200);
    const labels = ((await listed.json()) as { artifacts: { label?: string }[] }).artifacts.map(
      (a) => a.label,
    );
    expect(labels.filter((label) => label !== undefined && label !== 'chart.svg')).toEqual([]);
  });
});
