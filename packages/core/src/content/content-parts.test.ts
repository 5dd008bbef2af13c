import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import { createMemoryCache } from '../cache/memory-cache.js';
import { staticCredentials } from '../credentials/static-credentials.js';
import type { ToolEvent } from '../events/catalogue.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { defineTool } from '../tools/define-tool.js';
import { type ContentPart, withParts } from './content-part.js';

// A 1×1 red PNG.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=';

const everyKind: ContentPart[] = [
  { type: 'text', text: 'Here is what I found:' },
  { type: 'image', data: PNG, mediaType: 'image/png' },
  { type: 'audio', data: WAV, mediaType: 'audio/wav' },
  { type: 'resource', uri: 'test://notes.txt', mediaType: 'text/plain', text: 'the notes' },
  { type: 'resource', uri: 'test://report.pdf', mediaType: 'application/pdf', blob: PNG },
  { type: 'resource-link', uri: 'test://big.csv', name: 'big.csv', mediaType: 'text/csv', size: 2048 },
];

function runWith(returns: () => unknown, options: Parameters<typeof createRuntime>[0] | object = {}) {
  const events: ToolEvent[] = [];
  const tool = defineTool({
    name: 'show',
    description: 'Returns parts.',
    inputSchema: z.object({}),
    execute: returns,
  });
  const run = createRuntime({
    tools: [tool],
    sinks: [(event) => void events.push(event)],
    ...options,
  }).startRun();
  return { events, call: () => run.call({ tool: 'show', args: {} }) };
}

describe('content parts', () => {
  it('carries every kind of part in the result and writes them as text in the transcript', async () => {
    const result = await runWith(() => withParts(everyKind)).call();
    expect(result).toEqual({
      ok: true,
      value: undefined,
      parts: everyKind,
      content: [
        'Here is what I found:',
        '[image image/png, 70 B]',
        '[audio audio/wav, 44 B]',
        '[resource test://notes.txt text/plain]',
        'the notes',
        '[resource test://report.pdf application/pdf, 70 B]',
        '[resource link big.csv test://big.csv, text/csv, 2.0 KB]',
      ].join('\n'),
    });
  });

  it('keeps the structured value beside the parts and checks it against the output schema', async () => {
    const good = defineTool({
      name: 'measure',
      description: 'Measures an image.',
      inputSchema: z.object({ width: z.number() }),
      outputSchema: z.object({ width: z.number().max(100) }),
      execute: ({ width }) => withParts([{ type: 'image', data: PNG, mediaType: 'image/png' }], { width }),
    });
    const run = createRuntime({ tools: [good] }).startRun();
    expect(await run.call({ tool: 'measure', args: { width: 1 } })).toMatchObject({
      ok: true,
      value: { width: 1 },
      parts: [{ type: 'image' }],
      content: '[image image/png, 70 B]',
    });
    expect(await run.call({ tool: 'measure', args: { width: 500 } })).toMatchObject({
      ok: false,
      error: { kind: 'tool-error', message: expect.stringContaining('output schema') },
    });
  });

  it('gives a plain result no parts key at all', async () => {
    const result = await runWith(() => 'plain').call();
    expect(result).toEqual({ ok: true, value: 'plain', content: 'plain' });
  });

  it('keeps the transcript small for a 2 MB image and honours a tiny budget', async () => {
    const data = 'A'.repeat(2 * 1024 * 1024);
    const { call, events } = runWith(() => withParts([{ type: 'image', data, mediaType: 'image/png' }]), {
      outputBudgetBytes: 100,
    });
    const result = await call();
    if (!result.ok) throw new Error(result.error.message);
    expect(result.content).toBe('[image image/png, 1.5 MB]');
    expect(result.parts?.[0]).toMatchObject({ data });
    expect(events.some((event) => event.type === 'output.spilled')).toBe(false);
    expect(JSON.stringify(events)).not.toContain('AAAA');
  });

  it('spills and cuts long text parts like any transcript, keeping the parts whole', async () => {
    const text = 'word '.repeat(200);
    const store = createMemoryArtifactStore();
    const { call } = runWith(() => withParts([{ type: 'text', text }]), {
      outputBudgetBytes: 300,
      artifacts: store,
    });
    const result = await call();
    if (!result.ok) throw new Error(result.error.message);
    expect(result.spilled?.ref).toMatch(/^art_/);
    expect(new TextEncoder().encode(result.content).byteLength).toBeLessThanOrEqual(300);
    expect(result.parts).toEqual([{ type: 'text', text }]);
  });

  it('fails a call whose parts are malformed, naming each problem, with no partial result', async () => {
    const { call, events } = runWith(() =>
      withParts([
        { type: 'text', text: 'fine' },
        { type: 'image', data: 'not base64!', mediaType: 'image/png' },
        { type: 'audio', data: WAV } as unknown as ContentPart,
        { type: 'resource', uri: 'test://both', text: 'a', blob: PNG },
        { type: 'resource', uri: 'test://neither' },
        { type: 'video', data: PNG } as unknown as ContentPart,
      ]),
    );
    const result = await call();
    expect(result).toMatchObject({ ok: false, error: { kind: 'tool-error', retryable: false } });
    if (result.ok) return;
    expect(result.error.details?.issues).toEqual([
      { path: 'parts[1].data', message: 'is not base64' },
      { path: 'parts[2].mediaType', message: 'must be a non-empty string' },
      { path: 'parts[3]', message: 'must have exactly one of text and blob' },
      { path: 'parts[4]', message: 'must have exactly one of text and blob' },
      { path: 'parts[5].type', message: expect.stringContaining('(got "video")') },
    ]);
    expect(result.error.message).toContain('parts[1].data is not base64');
    expect(events.map((event) => event.type)).toContain('tool.failed');
  });

  it('fails parts that are not an array', async () => {
    const result = await runWith(() => withParts('an image' as unknown as ContentPart[])).call();
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'tool-error', details: { issues: [{ path: 'parts' }] } },
    });
  });

  it('passes on only the known fields of each part', async () => {
    const sneaky = {
      type: 'text',
      text: 'hi',
      onRender: () => 'x',
      secret: 'kept?',
    } as unknown as ContentPart;
    const result = await runWith(() => withParts([sneaky])).call();
    expect(result).toMatchObject({ ok: true, parts: [{ type: 'text', text: 'hi' }] });
    if (result.ok) expect(Object.keys(result.parts![0]!)).toEqual(['type', 'text']);
  });

  it('keeps the credential redaction in parts text and the value beside it', async () => {
    const SECRET = 'sk-PLANTED-parts-91b2';
    const events: ToolEvent[] = [];
    const tool = defineTool({
      name: 'use_key',
      description: 'Uses a key and talks about it.',
      inputSchema: z.object({}),
      needs: { credential: 'api' },
      execute: (_args, ctx) =>
        withParts([{ type: 'text', text: `called with ${ctx.credential}` }], { credential: ctx.credential }),
    });
    const run = createRuntime({
      tools: [tool],
      credentials: staticCredentials({ api: SECRET }),
      sinks: [(event) => void events.push(event)],
    }).startRun();
    const result = await run.call({ tool: 'use_key', args: {} });
    expect(result).toMatchObject({ ok: true, content: 'called with [credential api]' });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });

  it('serves parts from the cache as the tool returned them', async () => {
    let runs = 0;
    const tool = defineTool({
      name: 'cached',
      description: 'Cached parts.',
      inputSchema: z.object({}),
      cache: { ttlMs: 60_000 },
      execute: () => {
        runs++;
        return withParts([{ type: 'image', data: PNG, mediaType: 'image/png' }], { n: 1 });
      },
    });
    const run = createRuntime({ tools: [tool], cache: createMemoryCache() }).startRun();
    const first = await run.call({ tool: 'cached', args: {} });
    const second = await run.call({ tool: 'cached', args: {} });
    expect(runs).toBe(1);
    expect(second).toEqual(first);
    expect(second).toMatchObject({ ok: true, value: { n: 1 }, parts: [{ type: 'image', data: PNG }] });
  });
});
