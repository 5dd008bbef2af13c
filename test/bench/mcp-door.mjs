// (i) MCP on Workers (issue 39, items 1 and 2), in the Worker of mcp-worker.mjs, load from
// autocannon on loopback as in http-door.mjs:
// - a 2026-07-28 `tools/call` of a plain tool through toolctx's door (mountMcp with runtimeFor)
//   against the same tool on the official SDK v2 handler and on Cloudflare's `createMcpHandler`;
// - `tasks/get` on a working task and on a completed one (mountMcp with `tasks`, a run host)
//   against the floor that reads one record from the task's Durable Object.
// The sides take turns in rounds, so they share the machine's load; each figure is the median of
// the rounds' rates and of their workerd CPU per call (from /proc, all of workerd's threads).
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { median } from './measure.mjs';
import { withWorker, workerdCpuMs } from './workerd.mjs';

export const mcpObjects = {
  MCP_SESSIONS: { className: 'BenchMcpSession', useSQLite: true },
  TASK_RUNS: { className: 'BenchTaskRunHost', useSQLite: true },
  FLOOR_READ: { className: 'BenchFloorRead', useSQLite: true },
};

const version = '2026-07-28';
const tasksExtension = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** A 2026-07-28 request: its headers and its body, `_meta` naming the revision. */
function request(method, name, params, capabilities = {}) {
  return {
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': version,
      'mcp-method': method,
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': version,
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    }),
  };
}

const addCall = request('tools/call', 'add', { name: 'add', arguments: { a: 1, b: 2 } });
const taskGet = (taskId) => request('tasks/get', taskId, { taskId }, tasksExtension);

/** The JSON-RPC message of an answer, JSON or SSE. */
async function messageOf(response) {
  const text = await response.text();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return JSON.parse(text);
  const data = text.split('\n').filter((line) => line.startsWith('data: '));
  return JSON.parse(data.at(-1).slice(6));
}

async function send(url, path, one) {
  const response = await fetch(`${url}${path}`, { method: 'POST', ...one });
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return { message: await messageOf(response), contentType: response.headers.get('content-type') };
}

/** Answers 2xx from `path` during `seconds`, cycling through `requests`, and workerd CPU meanwhile. */
async function load(url, path, requests, { connections, seconds }) {
  let next = 0;
  const cpuBefore = workerdCpuMs();
  const result = await autocannon({
    url: `${url}${path}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (r) => ({ ...r, ...requests[next++ % requests.length] }),
      },
    ],
  });
  if (result.non2xx || result.errors) {
    throw new Error(`${path}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load.`);
  }
  const cpuMs = cpuBefore === null ? Number.NaN : workerdCpuMs() - cpuBefore;
  return { rate: result['2xx'] / result.duration, cpuPerCall: cpuMs / result['2xx'] };
}

/** Starts `count` tasks of `tool` and waits until each says `status`; their ids. */
async function tasks(url, tool, args, count, status) {
  const ids = [];
  for (let i = 0; i < count; i++) {
    const created = await send(
      url,
      '/tasks',
      request('tools/call', tool, { name: tool, arguments: args }, tasksExtension),
    );
    const taskId = created.message.result?.taskId;
    if (!taskId) throw new Error(`${tool}: no task: ${JSON.stringify(created.message)}`);
    for (let tries = 0; ; tries++) {
      const got = (await send(url, '/tasks', taskGet(taskId))).message.result;
      if (got?.status === status) break;
      if (tries > 100) throw new Error(`${taskId}: ${JSON.stringify(got)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    ids.push(taskId);
  }
  return ids;
}

/**
 * Runs the sides of (i) in turns, `rounds` times `seconds` each after a warm-up; per side the
 * median rate (answers/s) and workerd CPU per answer (ms), each round's figures, and checks.
 */
export async function mcpDoor(url, { connections = 8, seconds = 4, rounds = 5, sides: only } = {}) {
  // Every side answers the same call with the same result before it is loaded.
  const answers = {};
  for (const path of ['/toolctx', '/sdk', '/agents']) {
    const { message, contentType } = await send(url, path, addCall);
    if (message.result?.structuredContent?.sum !== 3) throw new Error(`${path}: ${JSON.stringify(message)}`);
    answers[path] = { contentType, message };
  }
  const working = await tasks(url, 'task_wait', {}, connections, 'working');
  const completed = await tasks(url, 'task_add', { a: 1, b: 2 }, connections, 'completed');
  // The floor reads a record the size of a completed task's answer, one per task id.
  const record = (await send(url, '/tasks', taskGet(completed[0]))).message.result;
  const floorIds = completed.map((id) => `floor_${id}`);
  for (const key of floorIds) {
    await fetch(`${url}/floor-read/seed?key=${key}`, { method: 'POST', body: JSON.stringify(record) });
  }
  const floorCheck = (await send(url, '/floor-read', taskGet(floorIds[0]))).message;
  if (floorCheck.result?.status !== 'completed') throw new Error(`floor: ${JSON.stringify(floorCheck)}`);

  const all = {
    toolctx: ['/toolctx', [addCall]],
    sdk: ['/sdk', [addCall]],
    agents: ['/agents', [addCall]],
    taskWorking: ['/tasks', working.map(taskGet)],
    taskCompleted: ['/tasks', completed.map(taskGet)],
    floorRead: ['/floor-read', floorIds.map(taskGet)],
  };
  const sides = Object.fromEntries(Object.entries(all).filter(([side]) => !only || only.includes(side)));
  for (const [path, requests] of Object.values(sides))
    await load(url, path, requests, { connections, seconds: 1 });
  const runs = Object.fromEntries(Object.keys(sides).map((side) => [side, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [side, [path, requests]] of Object.entries(sides)) {
      runs[side].push(await load(url, path, requests, { connections, seconds }));
    }
  }
  const figures = Object.fromEntries(
    Object.entries(runs).map(([side, loads]) => [
      side,
      {
        rate: median(loads.map((one) => one.rate)),
        cpuPerCall: median(loads.map((one) => one.cpuPerCall)),
        rounds: loads,
      },
    ]),
  );
  return { ...figures, answers, record, connections, seconds, rounds };
}

/**
 * `mcpDoor` in a fresh workerd running mcp-worker.mjs, with `nodejs_compat`, which agents needs
 * (its handler imports `node:async_hooks`), as its documentation asks; every side runs with it.
 */
export const mcpDoorBench = (options) =>
  withWorker('./mcp-worker.mjs', mcpObjects, (url) => mcpDoor(url, options), ['nodejs_compat']);

// `node test/bench/mcp-door.mjs [rounds] [seconds]`: only these rows, printed as JSON.
if (import.meta.url === `file://${process.argv[1]}`) {
  const rounds = Number(process.argv[2] ?? 5);
  const seconds = Number(process.argv[3] ?? 4);
  const before = loadavg()[0];
  const result = await mcpDoorBench({ rounds, seconds });
  console.log(JSON.stringify({ ...result, load: [before, loadavg()[0]] }, null, 1));
}
