// A small SSE server for the remote-run tests, mounted on the Chromium project's vite server.
// `GET /sse-test/runs/:id/events` streams a canned run of 20 events; the prefix of the id picks
// the trouble: `drop-` drops the first connection mid-stream, `dup-` also repeats events on
// resume, `gap-` skips two events on the first connection, `flaky-` answers 503 first,
// `missing-` answers 404. `GET /sse-test/log/:id` lists each connection's Last-Event-ID.

const total = 20;

function eventAt(runId, seq) {
  const base = { seq, runId, ts: 1_700_000_000_000 + seq };
  if (seq === 1) return { ...base, type: 'run.started', data: { phase: 'act' } };
  if (seq === 2) return { ...base, type: 'tool.started', callId: 'c1', data: { tool: 'crawl' } };
  if (seq === total - 1)
    return { ...base, type: 'tool.finished', callId: 'c1', data: { tool: 'crawl', durationMs: 9 } };
  if (seq === total) return { ...base, type: 'run.finished', data: { status: 'ended', calls: 1 } };
  const n = seq - 2;
  const payload = { message: `page ${n}`, done: n, total: total - 4 };
  return { ...base, type: 'tool.progress', callId: 'c1', data: { tool: 'crawl', payload, n } };
}

/** @returns {import('vite').Plugin} */
export function sseTestServer() {
  /** @type {Map<string, { lastEventId: string | null, test: string | null }[]>} */
  const log = new Map();
  return {
    name: 'toolctx-sse-test-server',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const logMatch = /^\/sse-test\/log\/([^/?]+)/.exec(req.url ?? '');
        if (logMatch) {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(log.get(decodeURIComponent(logMatch[1])) ?? []));
          return;
        }
        const match = /^\/sse-test\/runs\/([^/?]+)\/events/.exec(req.url ?? '');
        if (!match) return next();
        const runId = decodeURIComponent(match[1]);
        const connections = log.get(runId) ?? [];
        log.set(runId, connections);
        const lastEventId = req.headers['last-event-id'] ?? null;
        connections.push({ lastEventId, test: req.headers['x-test'] ?? null });
        const first = connections.length === 1;
        if (runId.startsWith('missing-')) {
          res.statusCode = 404;
          res.end('no such run');
          return;
        }
        if (runId.startsWith('flaky-') && first) {
          res.statusCode = 503;
          res.end('try again');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(': hello\n\n');
        const send = (seq) => res.write(`id: ${seq}\ndata: ${JSON.stringify(eventAt(runId, seq))}\n\n`);
        if (first && runId.startsWith('gap-')) {
          for (const seq of [1, 2, 3, 4, 5, 8, 9]) send(seq);
          return; // held open: the client must notice the gap and reconnect by itself
        }
        if (first && (runId.startsWith('drop-') || runId.startsWith('dup-'))) {
          for (let seq = 1; seq <= 8; seq++) send(seq);
          res.write('id: 9\ndata: {"type":"tool.progress","se'); // cut mid-event
          setTimeout(() => res.socket?.destroy(), 20);
          return;
        }
        let from = Number(lastEventId ?? 0) + 1;
        if (runId.startsWith('dup-')) from = Math.max(1, from - 3);
        let seq = from;
        const timer = setInterval(() => {
          if (seq > total) {
            clearInterval(timer);
            res.end();
            return;
          }
          send(seq++);
        }, 2);
        req.on('close', () => clearInterval(timer));
      });
    },
  };
}
