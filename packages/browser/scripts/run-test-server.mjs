// A small stand-in for the edge's run routes, mounted on the Chromium project's vite server for the
// remote-run client's tests. The runs are core's own (a real runtime, real handles, events and
// approvals); only the HTTP around them is stood in for, answering as the edge's routes table
// says: `POST /run-test/runs`, `POST /run-test/runs/:runId/calls` (JSON at once, or with
// `Prefer: respond-async` a 202 with `Location` and the handle), `GET /run-test/runs/:runId/calls`
// and `/calls/:callId`, `POST .../calls/:callId/cancel`, `POST /run-test/approvals/:id`,
// `GET /run-test/runs/:runId/events` (SSE, `Last-Event-ID` resumes; with `maxEvents` given when
// the run starts, `410 events-trimmed` before the kept window). For the tests alone:
// `POST /run-test/runs/:runId/restart` drops the run as a crash would and takes it up again from
// what its stores kept, and `POST /run-test/release/:key` lets a `gate` tool finish.
import { createRuntime, defineTool } from '@toolctx/core';
import { createMemoryCallStore, createMemoryPendingApprovals } from '@toolctx/core/memory';
import { z } from 'zod';

/** Gates a `gate` tool waits on, by key: released ones resolve. */
const gates = new Map();
const gate = (key) => {
  let entry = gates.get(key);
  if (!entry) {
    let open;
    entry = { promise: new Promise((resolve) => (open = resolve)), open };
    gates.set(key, entry);
  }
  return entry;
};

const tools = [
  defineTool({
    name: 'count_words',
    description: 'Counts words.',
    inputSchema: z.object({ text: z.string() }),
    execute: ({ text }) => text.split(/\s+/).filter(Boolean).length,
  }),
  defineTool({
    name: 'gate',
    description: 'Reports, then finishes when the test releases its key, or fails when cancelled.',
    inputSchema: z.object({ key: z.string() }),
    execute: async ({ key }, ctx) => {
      ctx.progress({ message: `waiting for ${key}` });
      await Promise.race([
        gate(key).promise,
        new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
      ]);
      return `released ${key}`;
    },
  }),
  defineTool({
    name: 'pay',
    description: 'Needs approval.',
    inputSchema: z.object({ amount: z.number() }),
    effect: 'write',
    needsApproval: true,
    execute: ({ amount }) => ({ paid: amount }),
  }),
];

// What a durable store does: hands out copies, so a record changed in memory is not yet kept; and
// a run cut off by a "crash" writes nothing more (`alive` turns false).
function durableCalls(kept, alive) {
  return {
    get: (id) => structuredClone(kept.get(id)),
    put: (record) => alive() && kept.put(structuredClone(record)),
    open: () => Array.from(kept.open(), (record) => structuredClone(record)),
  };
}
function durableApprovals(kept, alive) {
  return {
    get: (id) => structuredClone(kept.get(id)),
    put: (pending) => alive() && kept.put(structuredClone(pending)),
    delete: (id) => alive() && kept.delete(id),
    list: () => Array.from(kept.list(), (pending) => structuredClone(pending)),
  };
}

/** @returns {import('vite').Plugin} */
export function runTestServer() {
  const runtime = createRuntime({ tools, approval: { request: async () => 'pending' } });
  /** @type {Map<string, any>} */
  const hosts = new Map();

  const start = (host) => {
    const generation = ++host.generation;
    const alive = () => host.generation === generation;
    const last = host.log.at(-1)?.seq;
    host.run = runtime.startRun({
      runId: host.runId,
      calls: durableCalls(host.calls, alive),
      pendingApprovals: durableApprovals(host.approvals, alive),
      ...(last === undefined ? {} : { continuesAfterSeq: last }),
      onEvent: (event) => {
        if (!alive()) return;
        host.log.push(event);
        for (const listener of host.listeners) listener(event);
      },
    });
  };

  return {
    name: 'toolctx-run-test-server',
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        const path = url.pathname;
        if (!path.startsWith('/run-test/')) return next();
        const json = (status, body, headers = {}) => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(body));
        };
        const notFound = (what) =>
          json(404, { kind: 'not-found', message: `No such ${what}.`, retryable: false });
        const body = async () => {
          let text = '';
          for await (const chunk of req) text += chunk;
          return text ? JSON.parse(text) : {};
        };
        if (req.method === 'POST' && path === '/run-test/runs') {
          const runId = `run_${crypto.randomUUID()}`;
          const { maxEvents = Infinity } = await body();
          const host = {
            runId,
            maxEvents,
            log: [],
            listeners: new Set(),
            calls: createMemoryCallStore(),
            approvals: createMemoryPendingApprovals(),
            generation: 0,
          };
          start(host);
          hosts.set(runId, host);
          return json(201, { runId }, { location: `/runs/${runId}` });
        }
        const released = /^\/run-test\/release\/([^/]+)$/.exec(path);
        if (req.method === 'POST' && released) {
          gate(decodeURIComponent(released[1])).open();
          return json(200, {});
        }
        const approval = /^\/run-test\/approvals\/([^/]+)$/.exec(path);
        if (req.method === 'POST' && approval) {
          const { runId, approved, reason } = await body();
          const host = hosts.get(runId);
          if (!host) return notFound('run');
          const decided = host.run.decide(
            decodeURIComponent(approval[1]),
            reason ? { approved, reason } : { approved },
          );
          if (!decided.taken) return json(404, decided.error);
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify(await decided.result));
        }
        const inRun = /^\/run-test\/runs\/([^/]+)(\/.*)?$/.exec(path);
        const host = inRun && hosts.get(decodeURIComponent(inRun[1]));
        if (!host) return notFound('run');
        const rest = inRun[2] ?? '';
        const { run } = host;
        if (req.method === 'POST' && rest === '/restart') {
          // A crash: the run object is dropped mid-call, nothing it does later is kept; the next
          // one is started from the stores and the log, as a Durable Object wakes.
          const dropped = host.run;
          start(host);
          void dropped.abort('the host restarted');
          return json(200, {});
        }
        if (req.method === 'GET' && rest === '/events') {
          const after = Number(req.headers['last-event-id'] ?? 0);
          // The log keeps its last `maxEvents`; resuming before them is refused, as the edge does.
          const lastSeq = host.log.at(-1)?.seq ?? 0;
          const oldestSeq = Math.max(1, lastSeq - host.maxEvents + 1);
          if (after + 1 < oldestSeq) {
            const message = `Events ${after + 1}–${oldestSeq - 1} are no longer kept.`;
            const details = { after, oldestSeq, lastSeq };
            return json(410, { kind: 'events-trimmed', message, retryable: false, details });
          }
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          const send = (event) => {
            if (event.seq > after && event.seq >= oldestSeq)
              res.write(`id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`);
            if (event.type === 'run.finished') res.end();
          };
          host.log.forEach(send);
          host.listeners.add(send);
          req.on('close', () => host.listeners.delete(send));
          return;
        }
        if (req.method === 'GET' && rest === '/calls') return json(200, { calls: run.openCalls() });
        const match = /^\/calls\/([^/]+)(\/cancel)?$/.exec(rest);
        if (match) {
          const callId = decodeURIComponent(match[1]);
          if (req.method === 'GET' && !match[2]) {
            const handle = run.callStatus(callId);
            return handle ? json(200, handle) : notFound('call');
          }
          if (req.method === 'POST' && match[2]) {
            return run.cancel(callId) ? json(200, { callId, cancelled: true }) : notFound('call');
          }
        }
        if (req.method === 'POST' && rest === '/calls') {
          const { tool, args, toolCallId = `call_${crypto.randomUUID()}` } = await body();
          if (run.callStatus(toolCallId)) {
            return json(409, { kind: 'conflict', message: `A call ${toolCallId} exists.`, retryable: false });
          }
          const result = run.call({ tool, args, toolCallId });
          if (/respond-async/.test(req.headers.prefer ?? '')) {
            // Goes on whatever the client does: its result is read from the handle.
            const location = `/runs/${host.runId}/calls/${toolCallId}`;
            return json(202, run.callStatus(toolCallId), { location });
          }
          res.writeHead(200, { 'content-type': 'application/json', 'x-toolctx-call-id': toolCallId });
          res.write(' '); // a heartbeat, as the edge sends while the call runs
          let answered = false;
          // A client that hangs up on a plain call cancels it.
          res.on('close', () => answered || run.cancel(toolCallId));
          const settled = await result;
          answered = true;
          return res.end(JSON.stringify(settled));
        }
        return notFound('route');
      });
    },
  };
}
