import { createRuntime, type ToolResult } from '@toolctx/core';
import { describe, expect, it } from 'vitest';
import { exampleTools } from '../example/index.js';
import { createMemoryRunDirectory, createToolServer } from '../index.js';
import { authenticate, memoryServer } from '../test-utils/server.js';
import { allMessages } from '../test-utils/sse.js';

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

function approvalIdOf(result: ToolResult): string {
  if (result.ok || result.error.kind !== 'approval-pending') throw new Error('expected a pending approval');
  return String(result.error.details?.approvalId);
}

describe('HTTP door: approvals', () => {
  it('leaves a call waiting, then runs it when POST /approvals/:id approves', async () => {
    const { post, startRun } = memoryServer();
    const runId = await startRun();
    const pending = await json<ToolResult>(
      await post(`/runs/${runId}/calls`, { tool: 'publish_note', args: { title: 'Q3' } }),
    );
    const approvalId = approvalIdOf(pending);
    // The answer names this door's way to decide, not run.resume, which an HTTP client has not.
    expect(pending).toMatchObject({
      error: { message: expect.stringContaining('POST /approvals/:approvalId') },
    });
    expect(pending).not.toMatchObject({ error: { message: expect.stringContaining('run.resume') } });
    const decided = await post(`/approvals/${approvalId}`, { runId, approved: true, reason: 'looks right' });
    expect(decided.status).toBe(200);
    expect(await json(decided)).toMatchObject({ ok: true, value: { published: 'Q3', approvalId } });
    const again = await post(`/approvals/${approvalId}`, { runId, approved: true });
    expect(again.status).toBe(404);
  });

  it('GET /runs/:runId/approvals shows the person deciding what each waiting call would run with, to the run’s owner only', async () => {
    const { post, send, startRun } = memoryServer();
    const runId = await startRun();
    const listed = async (as = 'ana') => {
      const response = await send(`/runs/${runId}/approvals`, { as });
      return {
        status: response.status,
        body: await json<{ approvals?: unknown[]; kind?: string }>(response),
      };
    };
    expect(await listed()).toEqual({ status: 200, body: { approvals: [] } });
    const approvalId = approvalIdOf(
      await json(
        await post(`/runs/${runId}/calls`, {
          tool: 'publish_note',
          args: { title: 'Q3 <b>' },
          toolCallId: 'note_1',
        }),
      ),
    );
    // The arguments as the tool would get them (its default filled in), not only the tool's name.
    expect(await listed()).toEqual({
      status: 200,
      body: {
        approvals: [
          {
            approvalId,
            toolCallId: 'note_1',
            tool: 'publish_note',
            args: { title: 'Q3 <b>', delayMs: 0 },
            requestedAt: expect.any(Number),
          },
        ],
      },
    });
    // Another identity gets the 404 of a run it does not have, with nothing of the arguments.
    const stranger = await listed('bob');
    expect(stranger.status).toBe(404);
    expect(JSON.stringify(stranger.body)).not.toContain('Q3');
    const nowhere = await send('/runs/run_nowhere/approvals', { as: 'bob' });
    expect(JSON.stringify(stranger.body).replaceAll(runId, 'ID')).toBe(
      JSON.stringify(await nowhere.json()).replaceAll('run_nowhere', 'ID'),
    );
    await post(`/approvals/${approvalId}`, { runId, approved: true });
    expect(await listed()).toEqual({ status: 200, body: { approvals: [] } });
    // A run that ends with a call still waiting: its approval lapses with it, and is listed no more.
    approvalIdOf(
      await json(await post(`/runs/${runId}/calls`, { tool: 'publish_note', args: { title: 'later' } })),
    );
    expect((await listed()).body.approvals).toHaveLength(1);
    expect((await send(`/runs/${runId}`, { method: 'DELETE' })).status).toBe(200);
    expect(await listed()).toEqual({ status: 200, body: { approvals: [] } });
  });

  it('answers a denial as an approval-denied result, and refuses another identity', async () => {
    const { post, startRun } = memoryServer();
    const runId = await startRun();
    const approvalId = approvalIdOf(
      await json(await post(`/runs/${runId}/calls`, { tool: 'publish_note', args: { title: 'x' } })),
    );
    expect((await post(`/approvals/${approvalId}`, { runId, approved: true }, { as: 'bob' })).status).toBe(
      404,
    );
    const denied = await post(`/approvals/${approvalId}`, { runId, approved: false, reason: 'not now' });
    expect(await json(denied)).toMatchObject({
      ok: false,
      error: { kind: 'approval-denied', message: /not now/ },
    });
  });

  it('streams the resumed call as SSE with Accept: text/event-stream: its events, then event: result', async () => {
    const { post, startRun } = memoryServer();
    const runId = await startRun();
    const approvalId = approvalIdOf(
      await json(await post(`/runs/${runId}/calls`, { tool: 'publish_note', args: { title: 'sse' } })),
    );
    const decided = await post(
      `/approvals/${approvalId}`,
      { runId, approved: true },
      { headers: { accept: 'text/event-stream' } },
    );
    expect(decided.status).toBe(200);
    expect(decided.headers.get('content-type')).toContain('text/event-stream');
    const messages = await allMessages(decided);
    expect(messages.map((m) => m.event)).toEqual(['approval.decided', 'tool.finished', 'result']);
    expect(JSON.parse(messages.at(-1)!.data)).toMatchObject({ ok: true, value: { published: 'sse' } });
  });

  it('validates the body: approved must be a boolean, runId an id', async () => {
    const { post } = memoryServer();
    expect((await post('/approvals/apr_1', { runId: 'run_1', approved: 'yes' })).status).toBe(400);
    expect((await post('/approvals/apr_1', { approved: true })).status).toBe(400);
    expect((await post('/approvals/apr_1', { runId: 'run_missing', approved: true })).status).toBe(404);
  });
});

describe('HTTP door: artifacts', () => {
  it('serves an artifact to its owner with its media type, size and digest; HEAD has no body', async () => {
    const { post, send, startRun } = memoryServer();
    const runId = await startRun();
    const text = 'Notes — with ünïcode 🙂';
    const saved = await json<{ ok: true; value: { ref: string; bytes: number } }>(
      await post(`/runs/${runId}/calls`, { tool: 'save_note', args: { text, label: 'notes.txt' } }),
    );
    const { ref, bytes } = saved.value;
    const got = await send(`/artifacts/${ref}`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(got.headers.get('content-length')).toBe(String(bytes));
    expect(got.headers.get('content-disposition')).toContain('notes.txt');
    expect(got.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    expect(got.headers.get('x-toolctx-artifact-kind')).toBe('note');
    // An HTTP date, of when it was saved: within this test's run, to the second.
    const modified = Date.parse(got.headers.get('last-modified') ?? '');
    expect(got.headers.get('last-modified')).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(Math.abs(modified - Date.now())).toBeLessThan(60_000);
    expect(await got.text()).toBe(text);
    const head = await send(`/artifacts/${ref}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes));
    expect(await head.text()).toBe('');
  });

  it('answers 404 for another identity, exactly as for a ref that never existed', async () => {
    const { post, send, startRun } = memoryServer();
    const runId = await startRun();
    const saved = await json<{ value: { ref: string } }>(
      await post(`/runs/${runId}/calls`, { tool: 'save_note', args: { text: 'private' } }),
    );
    const foreign = await send(`/artifacts/${saved.value.ref}`, { as: 'bob' });
    const never = await send('/artifacts/art_0000000000000000000000');
    expect([foreign.status, never.status]).toEqual([404, 404]);
    expect(await foreign.json()).toEqual(await never.json());
  });

  it("lists the caller's own artifacts, page by page, and nobody else's", async () => {
    const { post, send, startRun } = memoryServer();
    const runId = await startRun();
    const refs: string[] = [];
    for (const text of ['a', 'b', 'c']) {
      const saved = await json<{ value: { ref: string } }>(
        await post(`/runs/${runId}/calls`, { tool: 'save_note', args: { text } }),
      );
      refs.push(saved.value.ref);
    }
    // The test runtime is shared, so ana may own more: page through everything with limit=2.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await json<{ artifacts: { ref: string }[]; cursor?: string }>(
        await send(`/artifacts?limit=2${cursor ? `&cursor=${cursor}` : ''}`),
      );
      expect(page.artifacts.length).toBeLessThanOrEqual(2);
      seen.push(...page.artifacts.map((meta) => meta.ref));
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual(expect.arrayContaining(refs));
    expect(new Set(seen).size).toBe(seen.length);
    const bobs = await json<{ artifacts: unknown[] }>(await send('/artifacts', { as: 'bob' }));
    expect(bobs.artifacts.filter((meta) => refs.includes((meta as { ref: string }).ref))).toEqual([]);
    expect((await send('/artifacts?limit=0')).status).toBe(400);
  });

  it('takes a list limit from 1 to 1000: 1 and 1000 answer a page, 0, 1001 and 1.5 a 400 naming the range', async () => {
    const { post, send, startRun } = memoryServer();
    const runId = await startRun();
    for (const text of ['a', 'b']) await post(`/runs/${runId}/calls`, { tool: 'save_note', args: { text } });
    const one = await send('/artifacts?limit=1');
    expect(one.status).toBe(200);
    expect((await json<{ artifacts: unknown[] }>(one)).artifacts).toHaveLength(1);
    const most = await send('/artifacts?limit=1000');
    expect(most.status).toBe(200);
    expect((await json<{ artifacts: unknown[] }>(most)).artifacts.length).toBeGreaterThanOrEqual(2);
    for (const limit of ['0', '1001', '1.5']) {
      const refused = await send(`/artifacts?limit=${limit}`);
      expect(refused.status, limit).toBe(400);
      expect(await json(refused)).toMatchObject({
        kind: 'bad-request',
        message: 'limit must be a whole number from 1 to 1000.',
      });
    }
  });

  it('answers 501 unsupported when the runtime has no artifact store, to a read and a listing; a malformed ref is a 400 first', async () => {
    const runtime = createRuntime({ tools: exampleTools, approval: { request: async () => 'pending' } });
    const app = createToolServer({
      runtimeFor: () => runtime,
      runs: createMemoryRunDirectory({ runtime }),
      authenticate,
    });
    const as = { headers: { authorization: 'Bearer ana' } };
    for (const path of ['/artifacts/art_abc', '/artifacts']) {
      const response = await app.request(path, as);
      expect(response.status).toBe(501);
      expect(await response.json()).toMatchObject({ kind: 'unsupported' });
    }
    // A malformed ref is refused before that, as on a server with a store.
    const malformed = await app.request("/artifacts/art_'or'1'='1", as);
    expect(malformed.status).toBe(400);
  });
});
