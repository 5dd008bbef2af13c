import { SELF } from 'cloudflare:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ToolEvent } from '@toolctx/core';
import { serveMcp } from '@toolctx/core/mcp';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { parseSse } from '@toolctx/core/sse';
import { createStatusModel } from '@toolctx/core/status';
import { describe, expect, it } from 'vitest';
import { AUTH_URL, deliveredUrls, leaksIn, scenarioCalls, scenarioRuntime } from './scenario.js';

/** Polls `read` until it gives something: a call reaches its ask after a few turns. */
async function until<T>(read: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('never happened');
}

// One scripted scenario, scanned everywhere a secret could surface: events, status lines,
// results, errors, artifact listings and headers, SSE frames and MCP messages, in-process and
// through the Worker. The planted credential value — as itself, URL-encoded or in base64 — and
// authorization URL must occur nowhere: the URL only in the call's ask, read by the identity that
// may answer it (run.asks(), GET /runs/:runId/asks), or the host's hook where no one can be asked.

const auth = { authorization: 'Bearer scenario' };
const statusLines = (events: ToolEvent[]) => {
  const status = createStatusModel();
  for (const event of events) status.apply(event);
  return status.lines();
};

/** The channels the scenario's tools leak through, each of which must have carried something. */
function expectEveryChannel(events: ToolEvent[]) {
  const types = new Set(events.map((event) => event.type));
  for (const type of [
    'tool.progress',
    'tool.log',
    'custom.debug',
    'custom.request',
    'artifact.put',
    'tool.failed',
  ])
    expect(types, type).toContain(type);
}

/** The scenario's answers are what a leak would be hidden in: check they are the expected failures. */
function expectScenarioOutcomes(results: Array<{ ok: boolean; error?: { kind: string } }>) {
  expect(results.map((result) => (result.ok ? 'ok' : result.error?.kind))).toEqual([
    'ok',
    'tool-error',
    'tool-error',
    'authorization-required',
  ]);
}

describe('secret hygiene, in-process', () => {
  it('a run: events, results, errors, status lines and the artifact listing hold no planted secret, raw or encoded', async () => {
    deliveredUrls.length = 0;
    const events: ToolEvent[] = [];
    const artifacts = createMemoryArtifactStore();
    const run = scenarioRuntime(artifacts).startRun({
      identity: { tenant: 't', principal: 'p' },
      onEvent: (e) => void events.push(e),
    });
    const results = [];
    for (const call of scenarioCalls) {
      const result = run.call(call);
      if (call.tool === 'calendar') {
        // The sign-in is the call's URL ask: the page reaches the person who may answer, there only.
        const signIn = await until(() => run.asks()[0]);
        expect(signIn.url).toBe(AUTH_URL);
        await run.answer(signIn.askId, { action: 'cancel' });
      }
      results.push(await result);
    }
    await run.end();
    expectScenarioOutcomes(results);
    expectEveryChannel(events);
    expect(events.map((event) => event.type)).toContain('ask.requested');
    const listed = await artifacts.list({ tenant: 't', principal: 'p', conversation: '' });
    expect(listed.artifacts).toHaveLength(2);
    expect(leaksIn(JSON.stringify({ events, results, lines: statusLines(events), listed }))).toEqual([]);
    expect(deliveredUrls).toHaveLength(0); // asked, so not also handed to the host's hook
    // A run with no one to ask hands the URL to the host's hook alone.
    const unasked = scenarioRuntime().startRun({ identity: { tenant: 't', principal: 'p' }, canAsk: false });
    const refused = await unasked.call({ tool: 'calendar', args: {} });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'authorization-required' } });
    expect(leaksIn(JSON.stringify(refused))).toEqual([]);
    expect(deliveredUrls).toEqual([AUTH_URL]);
  });

  it('the MCP door in-process: every message either way, resources included, holds no planted secret', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const wire: unknown[] = [];
    const send = serverSide.send.bind(serverSide);
    serverSide.send = (message, options) => {
      wire.push(message);
      return send(message, options);
    };
    await serveMcp(scenarioRuntime(), { identify: () => ({ tenant: 't', principal: 'p' }) }).connect(
      serverSide,
    );
    const client = new Client({ name: 'scan', version: '1' });
    await client.connect(clientSide);
    const results = [];
    for (const call of scenarioCalls) {
      results.push(
        await client.callTool({ name: call.tool, arguments: call.args }, undefined, { onprogress: () => {} }),
      );
    }
    const { resources } = await client.listResources();
    expect(resources).toHaveLength(2);
    await client.readResource({ uri: resources[0]!.uri });
    await client.close();
    expect(results.map((result) => result.isError === true)).toEqual([false, true, true, true]);
    expect(wire.some((message) => JSON.stringify(message).includes('notifications/progress'))).toBe(true);
    expect(wire.some((message) => JSON.stringify(message).includes('notifications/message'))).toBe(true);
    expect(leaksIn(JSON.stringify(wire))).toEqual([]);
  });
});

describe('secret hygiene, through the Worker', () => {
  it("HTTP: JSON results, streamed SSE calls, the run event log, its status lines, the artifact listing and each artifact's headers", async () => {
    const request = (path: string, init: RequestInit = {}) =>
      SELF.fetch(`http://scenario.test${path}`, { ...init, headers: { ...auth, ...init.headers } });
    const texts: string[] = [await (await request('/tools')).text()];
    const start = await request('/runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const { runId } = (await start.json()) as { runId: string };
    const results = [];
    for (const [i, call] of scenarioCalls.entries()) {
      const answered = request(`/runs/${runId}/calls`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(i % 2 ? { accept: 'text/event-stream' } : {}) },
        body: JSON.stringify(call),
      });
      if (call.tool === 'calendar') {
        // The sign-in's page is read by the identity that may answer it, from the run's asks only.
        const listAsks = async () => {
          const asks = await (await request(`/runs/${runId}/asks`)).json();
          return (asks as { asks: Array<{ askId: string; url?: string }> }).asks[0];
        };
        const signIn = await until(listAsks);
        expect(signIn.url).toBe(AUTH_URL);
        const stranger = await SELF.fetch(`http://scenario.test/runs/${runId}/asks`, {
          headers: { authorization: 'Bearer other' },
        });
        expect(stranger.status).toBe(404);
        expect(leaksIn(await stranger.text())).toEqual([]);
        const reply = await request(`/runs/${runId}/asks/${signIn.askId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"action":"cancel"}',
        });
        texts.push(await reply.text());
      }
      const response = await answered;
      const text = await response.text();
      texts.push(`${response.status} ${[...response.headers].join(';')}`, text);
      const resultData = i % 2 ? parseSse(text).find((message) => message.event === 'result')?.data : text;
      results.push(JSON.parse(resultData ?? 'null'));
    }
    expectScenarioOutcomes(results);
    texts.push(await (await request(`/runs/${runId}`, { method: 'DELETE' })).text());
    const log = await (await request(`/runs/${runId}/events`)).text();
    const events = parseSse(log).map((message) => JSON.parse(message.data) as ToolEvent);
    expect(events.at(-1)?.type).toBe('run.finished');
    expectEveryChannel(events);
    texts.push(log, JSON.stringify(statusLines(events)));
    // The artifact listing, and each artifact's headers (kind, media type, label) and body.
    const listing = await (await request('/artifacts')).text();
    const refs = (JSON.parse(listing) as { artifacts: Array<{ ref: string }> }).artifacts.map(
      (meta) => meta.ref,
    );
    expect(refs.length).toBeGreaterThanOrEqual(2);
    texts.push(listing);
    for (const ref of refs) {
      for (const method of ['GET', 'HEAD']) {
        const response = await request(`/artifacts/${ref}`, { method });
        expect(response.status).toBe(200);
        expect(response.headers.get('x-toolctx-artifact-kind')).toContain('redacted');
        texts.push([...response.headers].join('\n'), await response.text());
      }
    }
    expect(leaksIn(texts.join('\n'))).toEqual([]);
  });

  it('MCP: every response, notification and log message of a session, resources included, holds no planted secret', async () => {
    const wire: string[] = [];
    const transport = new StreamableHTTPClientTransport(new URL('http://scenario.test/mcp'), {
      fetch: async (input, init) => {
        const response = await SELF.fetch(new Request(input, init));
        wire.push(await response.clone().text());
        return response;
      },
      requestInit: { headers: auth },
    });
    const client = new Client({ name: 'scan', version: '1' });
    await client.connect(transport);
    const progress: unknown[] = [];
    const results = [];
    for (const call of scenarioCalls) {
      results.push(
        await client.callTool({ name: call.tool, arguments: call.args }, undefined, {
          onprogress: (p) => void progress.push(p),
        }),
      );
    }
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThanOrEqual(2);
    for (const { uri } of resources) await client.readResource({ uri });
    await client.close();
    expect(results.map((result) => result.isError === true)).toEqual([false, true, true, true]);
    expect(progress.length).toBeGreaterThan(0);
    expect(wire.join('\n')).toContain('notifications/message');
    expect(leaksIn(wire.join('\n') + JSON.stringify({ results, progress }))).toEqual([]);
  });
});
