import { exports } from 'cloudflare:workers';
import { createRuntime, defineTool, type ToolResult } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMemoryRunDirectory, createToolServer } from '../index.js';
import { authenticate } from '../test-utils/server.js';
import { allMessages, eventsOf } from '../test-utils/sse.js';
import { tokenFor } from '../test-utils/worker.js';

// A corpus of hostile requests sent through the deployable Worker (src/worker.ts: the HTTP door in
// front, a Durable Object per run behind it). Each must be answered with a 4xx and an ErrorInfo
// body: never a 5xx, a stack trace, a file path, or the Worker's token (its one secret here).
const TOKEN = 'test-token';
const base = 'http://toolctx.test';
const auth = { authorization: `Bearer ${await tokenFor('ana')}` };
const longPrincipal = { authorization: `Bearer ${await tokenFor('p'.repeat(8192))}` };
const json = { ...auth, 'content-type': 'application/json' };

interface Case {
  name: string;
  /** The request; `run` is a live run of the caller. */
  request: (run: string) => Request;
  /** Expected status, when one is certain. */
  status?: number;
}

const post = (path: string, body: BodyInit, headers: Record<string, string> = json) =>
  new Request(`${base}${path}`, { method: 'POST', headers, body });
const call = (body: BodyInit, headers?: Record<string, string>) => (run: string) =>
  post(`/runs/${run}/calls`, body, headers);
const callJson = (value: unknown) => call(JSON.stringify(value));
const get = (path: string, headers: Record<string, string> = auth) =>
  new Request(`${base}${path}`, { headers });
const events = (lastEventId: string) => (run: string) =>
  get(`/runs/${run}/events`, { ...auth, 'last-event-id': lastEventId });

const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

const malformed: Case[] = [
  '{',
  '{"tool": "count_steps", "args": ',
  "{'tool': 'count_steps', 'args': {}}",
  '{"tool":"count_steps","args":{}}}',
  'nul',
  'NaN',
  '[1,',
  '{"tool":"count_steps","args":{"steps":1,}}',
  '\u0000',
  '{"tool":"count_steps" "args":{}}',
].map((body) => ({ name: `malformed JSON ${JSON.stringify(body)}`, request: call(body), status: 400 }));

const wrongTypes: Case[] = [
  null,
  'count_steps',
  42,
  true,
  [{ tool: 'count_steps', args: {} }],
  { tool: 5, args: {} },
  { tool: null, args: {} },
  { tool: ['count_steps'], args: {} },
  { tool: { name: 'count_steps' }, args: {} },
  { tool: '', args: {} },
  { tool: 'x'.repeat(65), args: {} },
  { tool: 'count_steps' },
  { tool: 'count_steps', args: {}, toolCallId: 'a b' },
  { tool: 'count_steps', args: {}, toolCallId: 7 },
  { tool: 'count_steps', args: {}, toolCallId: 'c'.repeat(129) },
  { tool: 'count_steps', args: {}, toolCallId: '../../x' },
].map((body) => ({
  name: `wrong types ${JSON.stringify(body).slice(0, 60)}`,
  request: callJson(body),
  status: 400,
}));

const startRunTypes: Case[] = [
  { phase: 'later' },
  { phase: 1 },
  { state: [1] },
  { state: 'x' },
  { sessionId: 42 },
  { sessionId: 's'.repeat(257) },
].map((body) => ({
  name: `POST /runs with ${JSON.stringify(body).slice(0, 40)}`,
  request: () => post('/runs', JSON.stringify(body)),
  status: 400,
}));

const sizes: Case[] = [
  {
    name: 'a 2 MiB body',
    request: callJson({ tool: 'count_steps', args: { steps: 1, pad: 'x'.repeat(2 * 1024 * 1024) } }),
    status: 413,
  },
  {
    name: 'a Content-Length over the limit',
    request: (run) =>
      post(`/runs/${run}/calls`, '{}', { ...json, 'content-length': String(10 * 1024 * 1024) }),
  },
  { name: 'arrays nested 100 000 deep as the body', request: call(deep(100_000)), status: 400 },
  {
    name: 'arrays nested 100 000 deep inside args',
    request: call(`{"tool":"count_steps","args":{"x":${deep(100_000)}}}`),
    status: 400,
  },
  {
    // The body object and args are two levels, so 63 arrays make 65: one over the limit of 64.
    name: 'arrays nested 65 deep inside args, just over the limit',
    request: call(`{"tool":"count_steps","args":{"x":${deep(63)}}}`),
    status: 400,
  },
  {
    name: 'objects nested 50 000 deep inside state',
    request: () => post('/runs', `{"state":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`),
    status: 400,
  },
  {
    name: 'brackets inside strings do not count as nesting',
    request: callJson({ tool: 'no_such_tool', args: { text: '[{'.repeat(10_000) } }),
    status: 404,
  },
  {
    name: 'a body of 200 000 keys',
    request: call(`{${Array.from({ length: 60_000 }, (_, i) => `"k${i}":0`).join(',')}}`),
    status: 400,
  },
  { name: 'an empty body', request: call(''), status: 400 },
  { name: 'bytes that are not UTF-8', request: call(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])), status: 400 },
];

const unknownTools: Case[] = [
  'rm_rf',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '../count_steps',
  'count_steps\n',
  'COUNT_STEPS',
  '🛠️',
].map((tool) => ({
  name: `unknown tool ${JSON.stringify(tool)}`,
  request: callJson({ tool, args: {} }),
  status: 404,
}));

const badIds: Case[] = [
  {
    name: 'an unknown run',
    request: () => post('/runs/run_nope/calls', '{"tool":"count_steps","args":{}}'),
    status: 404,
  },
  { name: 'a run id of 200 characters', request: () => get(`/runs/${'r'.repeat(200)}/events`), status: 400 },
  { name: 'a run id with an encoded slash', request: () => get('/runs/a%2F..%2Fb/events'), status: 400 },
  { name: 'a run id with unicode', request: () => get('/runs/%E2%80%AErun/events'), status: 400 },
  {
    name: 'a call id with a space, to cancel',
    request: (run) => post(`/runs/${run}/calls/a%20b/cancel`, '{}'),
    status: 400,
  },
  { name: 'an artifact ref with a NUL', request: () => get('/artifacts/art_%00'), status: 400 },
  {
    name: 'an artifact ref of 300 characters',
    request: () => get(`/artifacts/art_${'x'.repeat(300)}`),
    status: 400,
  },
  { name: 'an artifact ref with a quote', request: () => get("/artifacts/art_'or'1'='1"), status: 400 },
  {
    name: 'an approval id with a space',
    request: () => post('/approvals/a%20b', '{"approved":true}'),
    status: 400,
  },
  {
    name: 'an approval body with approved as a string',
    request: () => post('/approvals/apr_1', '{"approved":"yes"}'),
    status: 400,
  },
];

const lastEventIds: Case[] = [
  'abc',
  '-1',
  '1e3',
  '1.5',
  '0x10',
  '99999999999999999999',
  '١٢',
  '1;2',
  '1, 2',
].map((id) => ({
  name: `Last-Event-ID ${JSON.stringify(id)}`,
  request: events(id),
  status: 400,
}));
lastEventIds.push({
  name: '?after=abc',
  request: (run) => get(`/runs/${run}/events?after=abc`),
  status: 400,
});

const headers: Case[] = [
  { name: 'no Authorization', request: () => get('/tools', {}), status: 401 },
  {
    name: 'a lower-case bearer',
    request: () => get('/tools', { authorization: `bearer ${TOKEN}` }),
    status: 401,
  },
  {
    name: 'a token with a trailing space',
    request: () => get('/tools', { authorization: `Bearer ${TOKEN}x` }),
    status: 401,
  },
  {
    name: 'Basic credentials',
    request: () => get('/tools', { authorization: `Basic ${btoa(`u:${TOKEN}`)}` }),
    status: 401,
  },
  { name: 'the token in the query string', request: () => get(`/tools?token=${TOKEN}`, {}), status: 401 },
  {
    name: 'a forged MCP identity header on the HTTP door',
    request: () => get('/tools', { 'x-toolctx-identity': '{"tenant":"other"}' }),
    status: 401,
  },
  {
    name: 'a tools listing for a phase that does not exist',
    request: () => get('/tools?phase=root'),
    status: 400,
  },
  {
    name: 'a principal of 8 KiB',
    request: () => get('/runs/run_nope/events', longPrincipal),
    status: 404,
  },
];

const contentTypes: Case[] = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'text/json',
  'application/xml',
].map((type) => ({
  name: `Content-Type ${type}`,
  request: call('{"tool":"count_steps","args":{"steps":1}}', { ...auth, 'content-type': type }),
  status: 415,
}));
contentTypes.push({
  name: 'no Content-Type',
  request: call('{"tool":"count_steps","args":{"steps":1}}', auth),
  status: 415,
});

const routes: Case[] = [
  {
    name: 'PUT /runs',
    request: () => new Request(`${base}/runs`, { method: 'PUT', headers: json, body: '{}' }),
    status: 404,
  },
  {
    name: 'DELETE /tools',
    request: () => new Request(`${base}/tools`, { method: 'DELETE', headers: auth }),
    status: 404,
  },
  { name: 'a path traversal', request: () => get('/runs/../../etc/passwd'), status: 404 },
  { name: 'an unknown route', request: () => get('/admin'), status: 404 },
];

// The same kinds of body at the one-shot route, which reads and checks them the same way.
const oneShot = (body: BodyInit, headers?: Record<string, string>) => () => post('/calls', body, headers);
const oneShotCases: Case[] = [
  {
    name: 'POST /calls with malformed JSON',
    request: oneShot('{"tool": "count_steps", "args": '),
    status: 400,
  },
  { name: 'POST /calls without args', request: oneShot('{"tool":"count_steps"}'), status: 400 },
  { name: 'POST /calls with a numeric tool', request: oneShot('{"tool":5,"args":{}}'), status: 400 },
  { name: 'POST /calls with an empty body', request: oneShot(''), status: 400 },
  {
    name: 'POST /calls with a 2 MiB body',
    request: oneShot(JSON.stringify({ tool: 'count_steps', args: { pad: 'x'.repeat(2 * 1024 * 1024) } })),
    status: 413,
  },
  { name: 'POST /calls with arrays nested 100 000 deep', request: oneShot(deep(100_000)), status: 400 },
  {
    name: 'POST /calls of the unknown tool __proto__',
    request: oneShot('{"tool":"__proto__","args":{}}'),
    status: 404,
  },
  {
    name: 'POST /calls as text/plain',
    request: oneShot('{"tool":"count_steps","args":{}}', { ...auth, 'content-type': 'text/plain' }),
    status: 415,
  },
];

const corpus = [
  ...oneShotCases,
  ...malformed,
  ...wrongTypes,
  ...startRunTypes,
  ...sizes,
  ...unknownTools,
  ...badIds,
  ...lastEventIds,
  ...headers,
  ...contentTypes,
  ...routes,
];

const STACK = /\bat .*[(:]\d+|\.(ts|js|mjs):\d+|\/src\/|node_modules|file:\/\//;

describe('HTTP door: a hostile-input corpus through the Worker', () => {
  it('has 98 cases, the count SECURITY.md states', () => {
    expect(corpus.length).toBe(98);
  });

  it.each(corpus.map((c) => [c.name, c] as const))(
    '%s → a 4xx ErrorInfo, no stack, no secret',
    async (_name, c) => {
      const start = await exports.default.fetch(post('/runs', '{}'));
      const { runId } = (await start.json()) as { runId: string };
      const response = await exports.default.fetch(c.request(runId));
      const text = await response.text();
      expect(response.status, text).toBeGreaterThanOrEqual(400);
      expect(response.status, text).toBeLessThan(500);
      if (c.status !== undefined) expect(response.status, text).toBe(c.status);
      const body = JSON.parse(text) as Record<string, unknown>;
      expect(body).toMatchObject({ kind: expect.any(String), message: expect.any(String), retryable: false });
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(text).not.toMatch(STACK);
      expect(text).not.toContain(TOKEN);
    },
  );
});

// Nesting is counted over the whole body, every `[` and `{` a level: `{"args":{"x":[…]}}` is two
// levels before the arrays. Exactly 64 is taken, through the Worker into the run's object; 65 is not.
describe('HTTP door: nesting depth at its limit of 64, through the Worker', () => {
  const nested = (levels: number) =>
    `{"tool":"count_steps","args":{"steps":1,"delayMs":0,"x":${deep(levels - 2)}}}`;
  const send = async (body: string) => {
    const { runId } = (await (await exports.default.fetch(post('/runs', '{}'))).json()) as { runId: string };
    return exports.default.fetch(call(body)(runId));
  };

  it('takes a body nested exactly 64 levels deep', async () => {
    const response = await send(nested(64));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, value: { steps: 1 } });
  });

  it('refuses a body nested 65 levels deep with a 400 naming the limit of 64', async () => {
    const response = await send(nested(65));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { kind: string; message: string; details: unknown };
    expect(body).toMatchObject({ kind: 'bad-request', details: { maxDepth: 64 } });
    expect(body.message).toContain('deeper than 64 levels');
  });
});

// A model-supplied custom event name: a line break in it would end the SSE frame early (an
// `event:` line cannot hold one). The example Worker has no tool that emits, so this part of the
// corpus runs the HTTP door in memory with one.
const hostileEventNames = [
  'step\n',
  'a\nevent: run.finished\ndata: {}',
  'a\rb',
  'a\r\nid: 999999',
  'custom.\n\n',
  'a'.repeat(10_000),
  `x${'y'.repeat(64)}`,
  'with space',
  'ümlaut',
  '\u2028',
];

describe('HTTP door: hostile custom event names', () => {
  const announce = defineTool({
    name: 'announce',
    description: 'Emits a custom event of the given name.',
    inputSchema: z.object({ event: z.string() }),
    execute: ({ event }, ctx) => {
      ctx.emit(event, { said: true });
      return 'announced';
    },
  });
  const runtime = createRuntime({ tools: [announce] });
  const app = createToolServer({
    runtimeFor: () => runtime,
    runs: createMemoryRunDirectory({ runtime }),
    authenticate,
  });
  const send = (path: string, init: { method?: string; body?: unknown; accept?: string } = {}) =>
    app.request(path, {
      method: init.method ?? 'GET',
      headers: {
        authorization: 'Bearer ana',
        'content-type': 'application/json',
        ...(init.accept ? { accept: init.accept } : {}),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });

  it('settles each call as a tool error, and the event stream stays 200 for live and later readers', async () => {
    const { runId } = (await (await send('/runs', { method: 'POST', body: {} })).json()) as { runId: string };
    const live = await send(`/runs/${runId}/events`);
    expect(live.status).toBe(200);
    const liveMessages = allMessages(live);
    for (const event of hostileEventNames) {
      const response = await send(`/runs/${runId}/calls`, {
        method: 'POST',
        body: { tool: 'announce', args: { event } },
      });
      expect(response.status).toBe(200);
      expect((await response.json()) as ToolResult).toMatchObject({
        ok: false,
        error: { kind: 'tool-error', exception: 'TypeError' },
      });
      const streamed = await send(`/runs/${runId}/calls`, {
        method: 'POST',
        body: { tool: 'announce', args: { event } },
        accept: 'text/event-stream',
      });
      expect(streamed.status).toBe(200);
      const result = (await allMessages(streamed)).find((message) => message.event === 'result');
      expect(JSON.parse(result!.data)).toMatchObject({ ok: false, error: { kind: 'tool-error' } });
    }
    const fine = await send(`/runs/${runId}/calls`, {
      method: 'POST',
      body: { tool: 'announce', args: { event: 'fine' } },
    });
    expect(await fine.json()).toMatchObject({ ok: true, value: 'announced' });
    expect((await send(`/runs/${runId}`, { method: 'DELETE' })).status).toBe(200);

    const later = await send(`/runs/${runId}/events`);
    expect(later.status).toBe(200);
    for (const events of [eventsOf(await liveMessages), eventsOf(await allMessages(later))]) {
      expect(events.filter((event) => event.type.startsWith('custom.')).map((event) => event.type)).toEqual([
        'custom.fine',
      ]);
      expect(events.filter((event) => event.type === 'tool.failed')).toHaveLength(
        2 * hostileEventNames.length,
      );
      expect(events.at(-1)).toMatchObject({ type: 'run.finished' });
    }
  });
});

describe('HTTP door: a malformed list cursor', () => {
  it.each(['not-a-cursor', 'kvr2_', 'kvr2_%%%', 'kvr2_WyJhIl0', 'cur_1', '../..'])(
    'GET /artifacts?cursor=%s → 400 naming the cursor and the fix',
    async (cursor) => {
      const response = await exports.default.fetch(get(`/artifacts?cursor=${encodeURIComponent(cursor)}`));
      const text = await response.text();
      expect(response.status, text).toBe(400);
      const body = JSON.parse(text) as { kind: string; message: string; retryable: boolean };
      expect(body).toMatchObject({ kind: 'invalid-argument', retryable: false });
      expect(body.message).toContain(JSON.stringify(cursor));
      expect(body.message).toMatch(/none to start over/);
      expect(text).not.toMatch(STACK);
    },
  );
});
