import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryArtifactStore } from '../artifacts/memory-store.js';
import type { ToolExecutionContext } from '../context/types.js';
import { staticCredentials } from '../credentials/static-credentials.js';
import { ToolctxError } from '../errors.js';
import type { ToolEvent } from '../events/catalogue.js';
import { defineTool } from '../tools/define-tool.js';
import { createRuntime } from './create-runtime.js';

// What a call fails with, how it encodes what it reports and how it describes what it saves are
// reports too: a credential the call holds is redacted from all of them (redact-secrets.ts).

const KEY = 'sk-SECRET-1234';
const OTHER = 'sk-OTHER-56789';
const b64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
const b64url = (text: string) => b64(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

function harness(
  execute: (args: object, ctx: ToolExecutionContext) => unknown,
  retry?: { attempts: number },
) {
  const events: ToolEvent[] = [];
  const artifacts = createMemoryArtifactStore();
  const tool = defineTool({
    name: 'careless',
    description: 'Mishandles its key.',
    inputSchema: z.object({}),
    needs: { credential: 'api' },
    ...(retry ? { retry } : {}),
    execute,
  });
  const run = createRuntime({
    tools: [tool],
    artifacts,
    credentials: staticCredentials({ api: KEY, other: OTHER }),
    sinks: [(event) => void events.push(event)],
  }).startRun({ identity: { tenant: 't', principal: 'p' } });
  const call = () => run.call({ tool: 'careless', args: {} });
  const of = (type: string) => events.filter((event) => event.type === type).map((event) => event.data);
  return { events, call, of, artifacts };
}

/** Every way the tests below write the two keys, so a leak in any form is found. */
const leakedForms = [
  KEY,
  OTHER,
  'SECRET-1234',
  'OTHER-56789',
  b64(KEY),
  b64url(KEY),
  b64(OTHER),
  b64url(OTHER),
];
const leaks = (value: unknown) => leakedForms.filter((form) => JSON.stringify(value).includes(form));

describe('the error a call fails with', () => {
  it("loses the call's credentials from a ToolctxError's message and details, in the result, tool.failed and tool.retry", async () => {
    const { events, call, of } = harness(
      async (_args, ctx) => {
        const key = ctx.credential!.value;
        const other = (await ctx.credentials.get({ credential: 'other' })).value;
        throw new ToolctxError('tool-error', `the API refused ${key}`, {
          retryable: true,
          details: {
            sent: { authorization: `Bearer ${key}`, query: `?key=${encodeURIComponent(other)}` },
            [other]: [`Basic ${b64(`user:${key}`)}`],
          },
        });
      },
      { attempts: 2 },
    );
    const result = await call();
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'tool-error',
        message: 'the API refused [redacted]',
        retryable: true,
        details: {
          sent: { authorization: 'Bearer [redacted]', query: '?key=[redacted]' },
          '[redacted]': [expect.stringContaining('[redacted]')],
        },
      },
    });
    expect(of('tool.retry')).toEqual([
      expect.objectContaining({ error: expect.objectContaining({ message: 'the API refused [redacted]' }) }),
    ]);
    expect(of('tool.failed')).toHaveLength(1);
    expect(leaks({ result, events })).toEqual([]);
  });

  it('drops details too deep to redact rather than pass them on, and still fails the call with the message redacted', async () => {
    const { call } = harness((_args, ctx) => {
      let deep: Record<string, unknown> = { key: ctx.credential!.value };
      for (let i = 0; i < 100_000; i++) deep = { deep };
      throw new ToolctxError('tool-error', `failed with ${ctx.credential!.value}`, { details: deep });
    });
    const result = await call();
    expect(result).toEqual({
      ok: false,
      error: { kind: 'tool-error', message: 'failed with [redacted]', retryable: false },
    });
  });
});

describe('what a call returns', () => {
  it("keeps the value a tool returns as it is: a result is the tool's own to choose", async () => {
    const { call } = harness((_args, ctx) => ({ key: ctx.credential!.value }));
    expect(await call()).toMatchObject({ ok: true, value: { key: KEY } });
  });
});

describe('the encodings of what a call reports', () => {
  it('replaces a credential URL-encoded, form-encoded, in base64 and base64url, and inside a longer base64 text, in progress, log and emit', async () => {
    const spaced = 'sk key/with+odd=chars&more';
    const events: ToolEvent[] = [];
    const tool = defineTool({
      name: 'encoder',
      description: 'Writes its key in every encoding.',
      inputSchema: z.object({}),
      needs: { credential: 'odd' },
      execute: (_args, ctx) => {
        const key = ctx.credential!.value;
        const form = new URLSearchParams({ key }).toString();
        ctx.progress({ message: `GET /search?key=${encodeURIComponent(key)}`, done: 1, total: 3 });
        ctx.progress(`POST ${form}`);
        ctx.log('debug', `token ${b64(key)}`, {
          url: `/cb#${b64url(key)}`,
          basic: `Basic ${b64(`me:${key}`)}`,
        });
        ctx.emit('encoded', {
          blobs: [b64(`x${key}`), b64(`xy${key}zz`), b64(`xyz${key}!`), b64url(`ab${key}`)],
          path: encodeURI(`/files/${key}`),
        });
        return 'done';
      },
    });
    const run = createRuntime({
      tools: [tool],
      credentials: staticCredentials({ odd: spaced }),
      sinks: [(event) => void events.push(event)],
    }).startRun();
    expect(await run.call({ tool: 'encoder', args: {} })).toMatchObject({ ok: true });
    const reported = events.filter((event) => /^(tool\.progress|tool\.log|custom\.)/.test(event.type));
    expect(reported.map((event) => event.type)).toEqual([
      'tool.progress',
      'tool.progress',
      'tool.log',
      'custom.encoded',
    ]);
    const text = JSON.stringify(reported.map((event) => event.data));
    for (const form of [
      spaced,
      encodeURIComponent(spaced),
      new URLSearchParams({ key: spaced }).toString().slice(4),
      encodeURI(spaced),
      b64(spaced),
      b64url(spaced),
      // The middle of the key's base64 wherever it sits: what a decoder would read it from.
      b64(`x${spaced}`).slice(2, 30),
      b64(`xy${spaced}`).slice(3, 30),
      b64(`xyz${spaced}`).slice(4, 30),
      b64(`me:${spaced}`).slice(4, 30),
    ]) {
      expect(text).not.toContain(form);
    }
    expect(reported[0]!.data).toMatchObject({ payload: { message: 'GET /search?key=[redacted]' } });
    expect(reported[1]!.data).toMatchObject({ payload: 'POST key=[redacted]' });
    expect(reported[2]!.data).toMatchObject({ message: 'token [redacted]', data: { url: '/cb#[redacted]' } });
  });
});

describe('what a call saves', () => {
  it("replaces the call's credentials in an artifact's label, kind and media type, in the store, its listing and artifact.put; the data is the tool's own", async () => {
    const { call, of, artifacts } = harness(async (_args, ctx) => {
      const key = ctx.credential!.value;
      const other = (await ctx.credentials.get({ credential: 'other' })).value;
      await ctx.artifacts.put({
        kind: `report-${key}`,
        mediaType: `text/plain; key=${encodeURIComponent(other)}`,
        label: `made with ${b64(key)}`,
        data: `body ${key}`,
      });
      return 'saved';
    });
    expect(await call()).toMatchObject({ ok: true });
    const scope = { tenant: 't', principal: 'p', conversation: '' };
    const { artifacts: listed } = await artifacts.list(scope);
    expect(listed).toEqual([
      expect.objectContaining({
        kind: 'report-[redacted]',
        // The parameter that held a secret goes with it: `[redacted]` would not be a media type.
        mediaType: 'text/plain',
        label: 'made with [redacted]',
      }),
    ]);
    expect(of('artifact.put')).toEqual([expect.objectContaining({ kind: 'report-[redacted]' })]);
    expect(leaks({ listed, put: of('artifact.put') })).toEqual([]);
    // Data is content the tool chose to keep (a download may hold anything); it is not rewritten.
    expect((await artifacts.get(scope, listed[0]!.ref))?.data).toBe(`body ${KEY}`);
  });
});
