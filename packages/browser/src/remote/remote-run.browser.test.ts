// connectRun's verbs against the edge's HTTP door itself (`createToolServer`, runs in memory),
// served on the test page's origin by scripts/run-test-server.mjs. A call cut off by its host's
// crash is tested under `wrangler dev`: test/e2e/reload-after-crash.test.ts.
import type { CallHandle, ToolEvent } from '@toolctx/core';
import { describe, expect, it, vi } from 'vitest';
import { connectRun } from './connect-run.js';

const base = `${location.origin}/run-test`;
/** The same door, over runs that keep only their last 4 events. */
const trimmed = `${location.origin}/run-test-trimmed`;
const patience = { timeout: 15_000, interval: 20 };

async function startRun(at = base): Promise<string> {
  const response = await fetch(`${at}/runs`, { method: 'POST' });
  expect(response.status).toBe(201);
  return ((await response.json()) as { runId: string }).runId;
}
const release = (key: string) => fetch(`${location.origin}/run-test-gates/${key}`, { method: 'POST' });
const key = (name: string) => `${name}-${crypto.randomUUID()}`;

/** The handle as the server has it, read without the client under test. */
async function serverHandle(runId: string, callId: string): Promise<CallHandle | undefined> {
  const response = await fetch(`${base}/runs/${runId}/calls/${callId}`);
  return response.ok ? response.json() : undefined;
}

/** A `fetch` that notes each request's method, URL, `Prefer` header and answer status. */
function noting() {
  const seen: {
    method: string;
    url: string;
    prefer: string | null;
    status: number;
    location: string | null;
  }[] = [];
  const doFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    seen.push({
      method: init?.method ?? 'GET',
      url: String(input),
      prefer: new Headers(init?.headers).get('prefer'),
      status: response.status,
      location: response.headers.get('location'),
    });
    return response;
  };
  return { seen, fetch: doFetch };
}

describe("connectRun's calls and handles", () => {
  it('calls a tool and gives a refusal as data: an unknown tool, a second call under a known id', async () => {
    const run = connectRun(base, await startRun());
    expect(await run.call({ tool: 'count_words', args: { text: 'a b c' }, toolCallId: 'c1' })).toMatchObject({
      ok: true,
      value: 3,
    });
    expect(await run.call({ tool: 'nope', args: {} })).toMatchObject({
      ok: false,
      error: { kind: 'unknown-tool' },
    });
    expect(await run.call({ tool: 'count_words', args: { text: 'a' }, toolCallId: 'c1' })).toMatchObject({
      ok: false,
      error: { kind: 'conflict' },
    });
    expect(await run.callStatus('c1')).toMatchObject({
      tool: 'count_words',
      status: 'completed',
      result: { value: 3 },
    });
    expect(await run.callStatus('nobody')).toBeUndefined();
  });

  it('sends a detached call with Prefer: respond-async, which answers 202 at once, and resolves through its handle', async () => {
    const runId = await startRun();
    const server = noting();
    const run = connectRun(base, runId, { fetch: server.fetch });
    const gate = key('gate');
    const result = run.call({ tool: 'gate', args: { key: gate }, toolCallId: 'g1', detached: true });
    await vi.waitFor(async () => expect((await serverHandle(runId, 'g1'))?.status).toBe('working'), patience);
    expect(server.seen[0]).toEqual({
      method: 'POST',
      url: `${base}/runs/${runId}/calls`,
      prefer: 'respond-async',
      status: 202,
      location: `/runs/${runId}/calls/g1`,
    });
    expect((await run.openCalls()).map((handle) => handle.toolCallId)).toEqual(['g1']);
    await release(gate);
    expect(await result).toMatchObject({ ok: true, value: `released ${gate}` });
    expect(await run.openCalls()).toEqual([]);
  });

  it('cancels a call by its signal, plain or detached, and by its id; cancel answers whether there was one', async () => {
    const runId = await startRun();
    const run = connectRun(base, runId);
    for (const detached of [false, true]) {
      const controller = new AbortController();
      const id = `g_${detached}`;
      const result = run.call({
        tool: 'gate',
        args: { key: key('never') },
        toolCallId: id,
        signal: controller.signal,
        detached,
      });
      await vi.waitFor(async () => expect((await serverHandle(runId, id))?.status).toBe('working'), patience);
      controller.abort();
      expect(await result).toMatchObject({ ok: false, error: { kind: 'aborted' } });
      expect(await run.callStatus(id)).toMatchObject({ status: 'cancelled' });
    }
    const pending = await run.call({ tool: 'pay', args: { amount: 5 }, toolCallId: 'pay_5' });
    expect(pending).toMatchObject({ ok: false, error: { kind: 'approval-pending' } });
    expect(await run.cancel('pay_5')).toBe(true);
    expect(await run.cancel('pay_5')).toBe(false);
    expect(await run.callStatus('pay_5')).toMatchObject({
      status: 'cancelled',
      result: { error: { kind: 'aborted' } },
    });
  });

  it('shows what a call waiting for approval would run with, decides it with resume, and answers a decision not taken as data', async () => {
    const run = connectRun(base, await startRun());
    expect(await run.pendingApprovals()).toEqual([]);
    const pending = await run.call({ tool: 'pay', args: { amount: 9 }, toolCallId: 'pay_9' });
    const approvalId = String(!pending.ok && pending.error.details?.approvalId);
    // What the person deciding is shown: the call's arguments, from the server (GET …/approvals).
    expect(await run.pendingApprovals()).toEqual([
      { approvalId, toolCallId: 'pay_9', tool: 'pay', args: { amount: 9 }, requestedAt: expect.any(Number) },
    ]);
    expect(await run.resume(approvalId, { approved: true })).toMatchObject({ ok: true, value: { paid: 9 } });
    expect(await run.pendingApprovals()).toEqual([]);
    // The HTTP door answers 404 with the reason core gives (its kind is the door's: `not-found`).
    expect(await run.resume(approvalId, { approved: true })).toMatchObject({
      ok: false,
      error: { details: { reason: 'already-decided' } },
    });
  });

  it('after a reload shows each call in its true state and delivers the result that arrived while the page was away', async () => {
    const runId = await startRun();
    const [away, still] = [key('away'), key('still')];
    // The first page: two detached calls, one that waits for approval, one done. Its requests end
    // when it goes, as a reload ends them.
    const firstPage = new AbortController();
    const hangsUp: typeof fetch = (input, init) => fetch(input, { ...init, signal: firstPage.signal });
    const before = connectRun(base, runId, { signal: firstPage.signal, fetch: hangsUp });
    const left = [
      before.call({ tool: 'gate', args: { key: away }, toolCallId: 'g_away', detached: true }),
      before.call({ tool: 'gate', args: { key: still }, toolCallId: 'g_still', detached: true }),
      before.call({ tool: 'gate', args: { key: key('plain') }, toolCallId: 'g_plain' }),
    ];
    await before.call({ tool: 'pay', args: { amount: 3 }, toolCallId: 'pay_3' });
    await before.call({ tool: 'count_words', args: { text: 'one two' }, toolCallId: 'c1' });
    for (const id of ['g_still', 'g_plain'])
      await vi.waitFor(async () => expect((await serverHandle(runId, id))?.status).toBe('working'), patience);
    // The page goes; while it is away, one call finishes.
    firstPage.abort();
    for (const waiting of left) await expect(waiting).rejects.toMatchObject({ code: 'unreachable' });
    await release(away);
    await vi.waitFor(
      async () => expect((await serverHandle(runId, 'g_away'))?.status).toBe('completed'),
      patience,
    );

    // The plain call went with the page that made it.
    await vi.waitFor(
      async () => expect((await serverHandle(runId, 'g_plain'))?.status).toBe('cancelled'),
      patience,
    );

    const run = connectRun(base, runId);
    // Made again under its id, the call is a conflict; its result is picked up by that id.
    expect(
      await run.call({ tool: 'gate', args: { key: away }, toolCallId: 'g_away', detached: true }),
    ).toMatchObject({
      ok: false,
      error: { kind: 'conflict' },
    });
    expect(await run.callStatus('g_away')).toMatchObject({
      status: 'completed',
      result: { ok: true, value: `released ${away}` },
    });
    expect(await run.result('g_away')).toMatchObject({ ok: true, value: `released ${away}` });
    const open = await run.openCalls();
    expect(open.map((handle) => [handle.toolCallId, handle.status]).sort()).toEqual([
      ['g_still', 'working'],
      ['pay_3', 'input_required'],
    ]);
    expect(await run.result('pay_3')).toMatchObject({
      ok: false,
      error: {
        kind: 'approval-pending',
        details: { approvalId: open.find((h) => h.toolCallId === 'pay_3')?.approvalId },
      },
    });
    // The events replay from the log: each call's last word is its state now.
    const last = new Map<string, string>();
    const stop = run.subscribe(
      (event: ToolEvent) => void (event.callId && last.set(event.callId, event.type)),
    );
    await vi.waitFor(() => expect(last.size).toBe(5), patience);
    stop();
    expect(Object.fromEntries(last)).toEqual({
      g_away: 'tool.finished',
      g_still: 'tool.progress',
      g_plain: 'tool.failed',
      pay_3: 'tool.pending',
      c1: 'tool.finished',
    });
    // And a call still running is waited for from the new page.
    const waited = run.result('g_still');
    await release(still);
    expect(await waited).toMatchObject({ ok: true, value: `released ${still}` });
  });

  it('delivers a result over the output budget whole, from the artifact its handle links', async () => {
    const run = connectRun(base, await startRun());
    const rows = Array.from({ length: 3_000 }, (_, i) => ({ i, name: `row ${i}` }));
    const result = await run.call({ tool: 'rows', args: { n: 3_000 }, toolCallId: 'big', detached: true });
    expect(result).toMatchObject({ ok: true, value: rows, spilled: { ref: expect.any(String) } });
    // The handle keeps the transcript copy and the link, not the value a second time.
    const handle = await run.callStatus('big');
    expect(handle?.result).toMatchObject({ ok: true, linked: true, spilled: { ref: expect.any(String) } });
    expect(handle?.result).not.toHaveProperty('value');
    expect(await run.result('big')).toEqual(result);
    await (await fetch(`${base}/runs/${run.runId}`, { method: 'DELETE' })).text();
  });

  it('lists a call’s ask and answers it: a refused answer says why, and the call goes on with a taken one', async () => {
    const run = connectRun(base, await startRun());
    const result = run.call({ tool: 'pick_day', args: {}, toolCallId: 'ask1', detached: true });
    await vi.waitUntil(async () => (await run.asks()).length === 1, patience);
    const [open] = await run.asks();
    expect(open).toMatchObject({ toolCallId: 'ask1', message: 'Which day?' });
    expect(await run.answer(open!.askId, { action: 'accept', values: { day: 'sun' } })).toMatchObject({
      taken: false,
      reason: 'invalid',
      error: { kind: 'invalid-argument', message: expect.stringContaining('"day" must be one of') },
    });
    expect(await run.answer(open!.askId, { action: 'accept', values: { day: 'tue' } })).toEqual({
      taken: true,
      toolCallId: 'ask1',
    });
    expect(await result).toMatchObject({ ok: true, value: { action: 'accept', values: { day: 'tue' } } });
    expect(await run.answer(open!.askId, { action: 'decline' })).toMatchObject({
      taken: false,
      reason: 'unknown',
    });
    expect(await run.asks()).toEqual([]);
  });

  it('answers result for an unknown call as not-found, and stops waiting when its signal fires', async () => {
    const runId = await startRun();
    const controller = new AbortController();
    const run = connectRun(base, runId, { signal: controller.signal });
    expect(await run.result('nobody')).toMatchObject({ ok: false, error: { kind: 'not-found' } });
    void run.call({ tool: 'gate', args: { key: key('held') }, toolCallId: 'g_held', detached: true });
    await vi.waitFor(
      async () => expect((await serverHandle(runId, 'g_held'))?.status).toBe('working'),
      patience,
    );
    const waiting = run.result('g_held');
    controller.abort();
    expect(await waiting).toMatchObject({ ok: false, error: { kind: 'aborted', retryable: true } });
    expect((await serverHandle(runId, 'g_held'))?.status).toBe('working');
  });

  it('reads a log trimmed to its newest events from where it starts, and lists a call that started before it in openCalls', async () => {
    const runId = await startRun(trimmed);
    const run = connectRun(trimmed, runId);
    await run.call({ tool: 'pay', args: { amount: 1 }, toolCallId: 'pay_early' });
    for (const n of [1, 2, 3])
      await run.call({ tool: 'count_words', args: { text: 'a' }, toolCallId: `c${n}` });
    const refused = await fetch(`${trimmed}/runs/${runId}/events`);
    expect(refused.status).toBe(410);
    const { details } = (await refused.json()) as { details: { oldestSeq: number; lastSeq: number } };
    expect(details.oldestSeq).toBeGreaterThan(1);
    const seqs: number[] = [];
    await new Promise<void>((resolve) =>
      run.subscribe((event) => {
        seqs.push(event.seq);
        if (event.seq === details.lastSeq) resolve();
      }),
    );
    expect(seqs).toEqual(Array.from({ length: 4 }, (_, i) => details.oldestSeq + i));
    expect((await run.openCalls()).map((handle) => handle.toolCallId)).toEqual(['pay_early']);
  });
});
