// `callLimit` under `wrangler dev` (the MCP test Worker's /mcp-calls-capped: two calls in flight per
// identity, across its sessions): the SDK client meets the 429 with Retry-After and a JSON-RPC
// error naming the limit; another identity is not affected; a slot comes back when a call is
// answered or cancelled (a call whose client hangs up goes on, holding its slot), and the
// identity's calls succeed again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget, waitUntil } from '../slowdown.js';
import { type McpWorker, startMcpWorker } from './mcp-worker.js';

let worker: McpWorker;
beforeAll(async () => {
  worker = await startMcpWorker('/mcp-calls-capped');
});
afterAll(() => worker?.dev.stop());

const add = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'add', arguments: { a: 1, b: 2 } },
});

/** `add` as a raw call in `sessionId`: its status, and whether it answered the sum. */
async function rawAdd(
  token: string,
  sessionId: string,
  id: number,
): Promise<{ status: number; sum: boolean }> {
  const response = await worker.raw(token, sessionId, { body: add(id) });
  return { status: response.status, sum: (await response.text()).includes('"sum":3') };
}

type Connected = Awaited<ReturnType<McpWorker['connectAs']>>;

/**
 * `wait_for_abort` as `connected`'s SDK client, started again if the limit refused it: a probe
 * below can hold the identity's other slot at the moment the call arrives (seen on a loaded
 * machine), so the probes ask `startedAgain()` first and count a refusal only once it holds.
 */
function holder(connected: Connected, id: string, signal: AbortSignal) {
  let refused = false;
  let settled: Promise<unknown>;
  const start = () => {
    refused = false;
    settled = connected.client
      .callTool({ name: 'wait_for_abort', arguments: { id } }, undefined, { signal, timeout: 120_000 })
      .catch((error: Error) => {
        if (!signal.aborted) refused = true;
        return error;
      });
  };
  start();
  return {
    /** Whether the call had been refused (and so is started again now). */
    startedAgain(): boolean {
      if (!refused) return false;
      start();
      return true;
    },
    settled: () => settled,
  };
}

describe('MCP calls per identity, under wrangler dev', () => {
  it('refuses a third call in flight across sessions with 429 and Retry-After; another identity goes on; cancelled and answered calls give their slots back, a hung-up one holds its slot until its cancel', async () => {
    const first = await worker.connectAs('gus');
    const second = await worker.connectAs('gus');
    const cancelling = new AbortController();
    const held1 = holder(first, 'held-1', cancelling.signal);
    // A raw call whose client will hang up: its slot is held once its headers are in.
    const hangingUp = new AbortController();
    const dropped = await fetch(`${worker.dev.url}/mcp-calls-capped`, {
      method: 'POST',
      signal: hangingUp.signal,
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2025-11-25', // a revision whose POST streams open with a priming event
        authorization: 'Bearer gus',
        'mcp-session-id': second.sessionId,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'held-2',
        method: 'tools/call',
        params: { name: 'wait_for_abort', arguments: { id: 'held-2' } },
      }),
    });
    expect(dropped.status).toBe(200);
    // Its priming event's id, for the resume below; the rest is left unread.
    const reader = dropped.body!.pipeThrough(new TextDecoderStream()).getReader();
    const primingId = (await reader.read()).value?.match(/^id: (\d+)$/m)?.[1];
    expect(primingId).toBeDefined();
    void (async () => {
      while (!(await reader.read()).done) {}
    })().catch(() => {});
    // The SDK client's call holds its slot once the Worker has it: wait until the third is refused.
    const refused = await waitUntil(
      async () => {
        if (held1.startedAgain()) return undefined;
        const response = await worker.raw('gus', second.sessionId, { body: add(1) });
        if (response.status === 429) return response;
        await response.text();
        return undefined;
      },
      { what: "gus's third call refused while two are held", ms: 5000 },
    );
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: expect.stringMatching(/limit of 2 calls in flight for this identity.*maxCallsPerIdentity/),
        data: { limit: 2, option: 'maxCallsPerIdentity' },
      },
      id: 1,
    });
    await expect(second.client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).rejects.toThrow(
      /429|limit of 2 calls/,
    );
    // Another identity, and requests that are not calls, carry on.
    const other = await worker.connectAs('hal');
    expect(
      (await other.client.callTool({ name: 'add', arguments: { a: 20, b: 22 } })).structuredContent,
    ).toEqual({
      sum: 42,
    });
    expect((await second.client.listTools()).tools.length).toBeGreaterThan(0);

    // The SDK client cancels its call (notifications/cancelled, in a POST of its own that the
    // client does not wait for): its slot comes back with the cancel.
    cancelling.abort('no longer needed');
    expect(await held1.settled()).toBeInstanceOf(Error);
    await waitUntil(async () => (await rawAdd('gus', second.sessionId, 2)).sum, {
      what: "a cancelled MCP call's slot given back (gus's call answered beside held-2)",
      ms: 3000,
    });
    // A third call held beside the raw one: the identity is at its limit again.
    const holding = new AbortController();
    const held3 = holder(first, 'held-3', holding.signal);
    let id = 100;
    await waitUntil(
      async () => !held3.startedAgain() && (await rawAdd('gus', second.sessionId, id++)).status === 429,
      {
        what: "gus's call refused while held-2 and held-3 run",
        ms: 5000,
      },
    );
    // The raw client hangs up: the call goes on and holds its slot (MCP 2025-11-25: a disconnect is
    // not a cancel), also well past the heartbeat that finds the dropped stream (before, that freed
    // the slot about 1 s after the hang-up).
    hangingUp.abort();
    const hungUpAt = performance.now();
    while (performance.now() - hungUpAt < budget(3000)) {
      expect((await rawAdd('gus', second.sessionId, id++)).status).toBe(429);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const resumed = await worker.raw('gus', second.sessionId, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'last-event-id': primingId! },
    });
    expect(resumed.status).toBe(200);
    // Its slot comes back with its cancel (or its answer): notifications/cancelled still cancels.
    const cancel = await worker.raw('gus', second.sessionId, {
      body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'held-2' } },
    });
    expect(cancel.status).toBe(202);
    await cancel.text();
    await waitUntil(async () => (await rawAdd('gus', second.sessionId, id++)).sum, {
      what: "a dropped MCP call's slot given back at its cancel (gus's call answered beside held-3)",
      ms: 3000,
    });
    await resumed.body?.cancel();
    // Answered calls give theirs back: one after another, all let in beside the held one.
    for (let id = 10; id < 14; id++)
      expect(await rawAdd('gus', first.sessionId, id)).toEqual({ status: 200, sum: true });
    holding.abort();
    for (const client of [first, second, other]) await client.client.close().catch(() => {});
  });
});
