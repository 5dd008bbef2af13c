import type { RunEvents, ToolEvent } from '@toolctx/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { attachStatus } from '../status/attach-status.js';
import { frames, lineTexts } from '../status/test-helpers.js';
import { connectRun } from './connect-run.js';
import { RemoteRunError } from './remote-run-error.js';

const base = `${location.origin}/sse-test`;
const fast = { minDelayMs: 10, maxDelayMs: 50 };
const id = (kind: string) => `${kind}-${crypto.randomUUID()}`;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

async function collect(events: AsyncIterable<ToolEvent>): Promise<number[]> {
  const seqs: number[] = [];
  for await (const event of events) seqs.push(event.seq);
  return seqs;
}

async function connections(runId: string): Promise<{ lastEventId: string | null; test: string | null }[]> {
  return (await fetch(`${base}/log/${runId}`)).json();
}

/**
 * A `fetch` that answers each of `statuses` in turn itself (an `Error` is a network failure) and
 * passes later requests on to the test server; `requests` counts every request made.
 */
function answering(statuses: (number | Error)[]) {
  const counter = { requests: 0 };
  const doFetch: typeof fetch = async (input, init) => {
    const answer = statuses[counter.requests++];
    if (answer === undefined) return fetch(input, init);
    if (answer instanceof Error) throw answer;
    return new Response(`refused with ${answer}`, { status: answer });
  };
  return Object.assign(counter, { fetch: doFetch });
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('connectRun', () => {
  it('delivers each event exactly once, in order, across a dropped connection', async () => {
    const runId = id('drop');
    const seqs = await collect(connectRun(base, runId, { retry: fast, headers: { 'x-test': 'yes' } }));
    expect(seqs).toEqual(range(1, 20));
    expect(await connections(runId)).toEqual([
      { lastEventId: null, test: 'yes' },
      { lastEventId: '8', test: 'yes' },
    ]);
  });

  it('drops events the server repeats on resume', async () => {
    expect(await collect(connectRun(base, id('dup'), { retry: fast }))).toEqual(range(1, 20));
  });

  it('reconnects from the last event it delivered when seq skips', async () => {
    const runId = id('gap');
    expect(await collect(connectRun(base, runId, { retry: fast }))).toEqual(range(1, 20));
    expect((await connections(runId)).map((c) => c.lastEventId)).toEqual([null, '5']);
  });

  it('starts after lastEventId', async () => {
    const runId = id('plain');
    expect(await collect(connectRun(base, runId, { lastEventId: 15 }))).toEqual(range(16, 20));
    expect((await connections(runId))[0]?.lastEventId).toBe('15');
  });

  it('retries a 503 and gives up on a 404 with a typed error', async () => {
    expect(await collect(connectRun(base, id('flaky'), { retry: fast }))).toEqual(range(1, 20));
    const refused = collect(connectRun(base, id('missing'), { retry: fast }));
    await expect(refused).rejects.toBeInstanceOf(RemoteRunError);
    await expect(refused).rejects.toMatchObject({ code: 'http-status', status: 404 });
  });

  it.each([408, 429])('retries a %i, then reads the stream', async (status) => {
    const runId = id('plain');
    const server = answering([status]);
    expect(await collect(connectRun(base, runId, { retry: fast, fetch: server.fetch }))).toEqual(
      range(1, 20),
    );
    expect(server.requests).toBe(2);
    expect(await connections(runId)).toHaveLength(1); // the retry, which reached the server
  });

  it.each([
    ['a 503', 503],
    ['a 408', 408],
    ['a 429', 429],
    ['a network error', new TypeError('Failed to fetch')],
  ] as const)('throws code unreachable after `attempts` failures in a row, each %s', async (_, answer) => {
    const server = answering(Array.from({ length: 20 }, () => answer));
    const failed = collect(
      connectRun(base, id('plain'), { retry: { ...fast, attempts: 3 }, fetch: server.fetch }),
    );
    await expect(failed).rejects.toBeInstanceOf(RemoteRunError);
    await expect(failed).rejects.toMatchObject({ code: 'unreachable', status: undefined });
    // Three requests, three failures, and no fourth: long before the 20 failures on offer ran out.
    expect(server.requests).toBe(3);
  });

  it('gives up after 8 failures in a row by default', async () => {
    const server = answering(Array.from({ length: 20 }, () => 503));
    const failed = collect(
      connectRun(base, id('plain'), { retry: { minDelayMs: 1, maxDelayMs: 1 }, fetch: server.fetch }),
    );
    await expect(failed).rejects.toBeInstanceOf(RemoteRunError);
    await expect(failed).rejects.toMatchObject({ code: 'unreachable', status: undefined });
    expect(server.requests).toBe(8);
  });

  it('waits 250 ms before the first retry by default', async () => {
    const controller = new AbortController();
    const times: number[] = [];
    const doFetch: typeof fetch = async () => {
      times.push(performance.now());
      if (times.length === 1) return new Response('refused with 503', { status: 503 });
      // Measured: stop here, as a real fetch does when its signal aborts.
      controller.abort();
      throw new DOMException('The operation was aborted.', 'AbortError');
    };
    await collect(connectRun(base, id('plain'), { fetch: doFetch, signal: controller.signal }));
    expect(times).toHaveLength(2);
    const delay = times[1]! - times[0]!;
    expect(delay).toBeGreaterThanOrEqual(250);
    // Well below a first delay of 1 s or more, with room for a late timer on a loaded machine.
    expect(delay).toBeLessThan(1000);
  });

  it('ends quietly when its signal aborts', async () => {
    const controller = new AbortController();
    const seqs: number[] = [];
    for await (const event of connectRun(base, id('gap'), { signal: controller.signal, retry: fast })) {
      seqs.push(event.seq);
      if (event.seq === 3) controller.abort();
    }
    expect(seqs).toEqual([1, 2, 3]);
  });

  it("is subscribed to like a local run's events, and the function subscribe answers closes the connection", async () => {
    const events: RunEvents = connectRun(base, id('drop'), { retry: fast });
    const seqs: number[] = [];
    const done = new Promise<void>((resolve) =>
      events.subscribe((event) => {
        seqs.push(event.seq);
        if (event.type === 'run.finished') resolve();
      }),
    );
    await done;
    expect(seqs).toEqual(range(1, 20));
    let aborted = false;
    const watched: typeof fetch = (input, init) => {
      init?.signal?.addEventListener('abort', () => (aborted = true));
      return fetch(input, init);
    };
    const first: number[] = [];
    const stop = connectRun(base, id('plain'), { fetch: watched }).subscribe((event) => {
      first.push(event.seq);
      if (event.seq === 3) stop();
    });
    await vi.waitFor(() => expect(aborted).toBe(true), { timeout: 15_000, interval: 20 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(first).toEqual([1, 2, 3]);
  });

  it('feeds attachStatus', async () => {
    const element = document.createElement('div');
    document.body.append(element);
    const seen: string[] = [];
    attachStatus(element, connectRun(base, id('drop'), { retry: fast }));
    new MutationObserver(() => seen.push(lineTexts(element).join())).observe(element, {
      subtree: true,
      characterData: true,
      childList: true,
    });
    // Wait for the run to finish rather than a fixed time: CI machines are slow and shared.
    await vi.waitFor(() => expect(lineTexts(element)).toEqual(['crawl done']), {
      timeout: 15_000,
      interval: 20,
    });
    await frames();
    expect(seen.some((text) => /^page \d+$/.test(text))).toBe(true);
    expect(element.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow')).toBe('16');
  });
});
