// The example Worker's door against what a hostile client or page can send, under `wrangler dev`:
// a Host it does not serve (DNS rebinding), a body that trickles, and a principal named in a
// header instead of a token. TOOLCTX_BODY_TIMEOUT_MS is 1.5 s here (10 s by default).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budget } from '../slowdown.js';
import { type ExampleWorker, startExampleWorker, tokenFor, workerToken } from './example-worker.js';

const bodyTimeoutMs = 1500;
let worker: ExampleWorker;
beforeAll(async () => {
  worker = await startExampleWorker({ TOOLCTX_BODY_TIMEOUT_MS: String(bodyTimeoutMs) });
});
afterAll(() => worker?.dev.stop());

interface RawAnswer {
  status: number;
  body: string;
  /** ms from the first byte sent to the status line. */
  afterMs: number;
}

/**
 * One HTTP/1.1 request written by hand on a socket (fetch would not let us forge Host or send a
 * body slowly): `head` first, then each of `pieces` `everyMs` apart until the answer arrives.
 */
function raw(head: string, pieces: string[] = [], everyMs = 0): Promise<RawAnswer> {
  const { hostname, port } = new URL(worker.dev.url);
  const socket = connect(Number(port), hostname);
  const started = performance.now();
  let received = '';
  let answeredAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const sendNext = (rest: string[]) => {
    if (rest.length === 0 || answeredAt) return;
    socket.write(rest[0] as string);
    timer = setTimeout(() => sendNext(rest.slice(1)), everyMs);
  };
  return new Promise((resolve, reject) => {
    // However the server behaves, the answer is what arrived within the budget (status 0 if none),
    // so a request the server never answers fails its assertion instead of the test's time limit.
    socket.setTimeout(budget(30_000), () => socket.destroy());
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      received += chunk;
      if (!answeredAt && received.startsWith('HTTP/1.1 ')) answeredAt = performance.now();
      const [headers, body = ''] = received.split('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(headers ?? '')?.[1];
      if (length !== undefined && Buffer.byteLength(body) >= Number(length)) socket.end();
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      resolve({
        status,
        body: received.split('\r\n\r\n').slice(1).join('\r\n\r\n'),
        afterMs: answeredAt - started,
      });
    });
    socket.write(head);
    sendNext(pieces);
  });
}

const hostOf = () => new URL(worker.dev.url).host;
const get = async (path: string, host: string) =>
  raw(
    `GET ${path} HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${await tokenFor('ana')}\r\nconnection: close\r\n\r\n`,
  );

describe('the example Worker answers only its own Host names', () => {
  it('refuses Host: evil.example with a 421 naming the host and allowedHosts, and serves the loopback names', async () => {
    const refused = await get('/tools', 'evil.example');
    expect(refused.status).toBe(421);
    expect(JSON.parse(refused.body)).toMatchObject({
      kind: 'misdirected-request',
      details: { host: 'evil.example', allowedHosts: ['localhost', '127.0.0.1', '[::1]'] },
    });
    expect(JSON.parse(refused.body).message).toContain('allowedHosts');
    const { port } = new URL(worker.dev.url);
    for (const host of [hostOf(), `localhost:${port}`]) {
      expect((await get('/tools', host)).status, host).toBe(200);
    }
  });
});

describe('the example Worker cuts a trickling body', () => {
  const call = JSON.stringify({ tool: 'count_steps', args: { steps: 1, delayMs: 0 } });

  it('answers a body that declares its length but sends it slowly with a 408 after TOOLCTX_BODY_TIMEOUT_MS, and stays healthy', async () => {
    const runId = await worker.startRun();
    const head =
      `POST /runs/${runId}/calls HTTP/1.1\r\nhost: ${hostOf()}\r\nauthorization: Bearer ${await tokenFor('ana')}\r\n` +
      `content-type: application/json\r\ncontent-length: ${call.length}\r\nconnection: close\r\n\r\n`;
    // A byte every 200 ms: the whole body would take about 12 s.
    const answer = await raw(head, [...call], 200);
    console.log(
      `trickling body: 408 after ${Math.round(answer.afterMs)} ms (bodyTimeoutMs ${bodyTimeoutMs})`,
    );
    expect(answer.status).toBe(408);
    expect(answer.afterMs).toBeGreaterThanOrEqual(bodyTimeoutMs - 50);
    expect(answer.afterMs).toBeLessThan(bodyTimeoutMs + budget(3000));
    expect(JSON.parse(answer.body)).toMatchObject({ kind: 'request-timeout', details: { bodyTimeoutMs } });
    // The Worker goes on: the same run takes a call sent whole.
    const called = await worker.post(`/runs/${runId}/calls`, JSON.parse(call));
    expect(await called.json()).toMatchObject({ ok: true, value: { steps: 1 } });
  });

  it('answers a chunked body that trickles with a 408 too', async () => {
    const head =
      `POST /calls HTTP/1.1\r\nhost: ${hostOf()}\r\nauthorization: Bearer ${await tokenFor('ana')}\r\n` +
      'content-type: application/json\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n';
    // The last chunk ends the body, so a server that never timed the read out answers it (not a 408).
    const chunks = [...[...call].map((char) => `1\r\n${char}\r\n`), '0\r\n\r\n'];
    const answer = await raw(head, chunks, 200);
    expect(answer.status, `the answer: ${JSON.stringify(answer)}`).toBe(408);
    expect(JSON.parse(answer.body)).toMatchObject({ kind: 'request-timeout' });
    expect((await worker.send('/tools')).status).toBe(200);
  });
});

describe('the example Worker takes the principal from the token', () => {
  it('changes nothing for a client-sent x-toolctx-principal', async () => {
    const runId = await worker.startRun('ana');
    const events = (token: string, claimed: string) =>
      fetch(`${worker.dev.url}/runs/${runId}/events?after=0`, {
        headers: { authorization: `Bearer ${token}`, 'x-toolctx-principal': claimed },
      });
    // bob claiming to be ana is bob; the bare secret claiming ana is the principal `default`.
    expect((await events(await tokenFor('bob'), 'ana')).status).toBe(404);
    expect((await events(workerToken, 'ana')).status).toBe(404);
    // ana claiming to be bob is still ana, and sees her run.
    const own = await events(await tokenFor('ana'), 'bob');
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });
});
