// (a) per-call overhead of run.call for a trivial tool, against the function called directly, against
// recording its events by hand, and against the MCP SDK (a plain SDK server, and toolctx's serveMcp)
// over its in-memory transport.
// (f) the same per-call cost after 10, 1,000 and 100,000 earlier events in the run.

import { createRuntime, defineTool } from '@toolctx/core';
import { z } from 'zod';
import { interleaved, median, nsPerOp } from './measure.mjs';

const input = z.object({ a: z.number(), b: z.number() });
const add = ({ a, b }) => a + b;
const args = { a: 1, b: 2 };
const addTool = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  inputSchema: input,
  execute: add,
});

/** A sink that keeps every event, as a host recording the run would. */
function recordingSink() {
  const events = [];
  const sink = (event) => events.push(event);
  sink.events = events;
  return sink;
}

async function mcpClientFor(server) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(clientSide);
  return client;
}

/** Calls per round in {@link callSide}: enough that a record outlives many scavenges. */
const CALLS = 200_000;

/**
 * The sides of (a), by name: `run.call` with a sink that keeps every event, the direct call,
 * recording the same two events by hand, and `run.call` with a sink that keeps nothing.
 */
function sides() {
  const recorded = [];
  let seq = 0;
  let dropped = 0;
  const keeping = createRuntime({ tools: [addTool], sinks: [(event) => recorded.push(event)] }).startRun({});
  const quiet = createRuntime({ tools: [addTool], sinks: [() => dropped++] }).startRun({});
  return {
    recorded,
    direct: () => {
      let sum = 0;
      for (let i = 0; i < CALLS; i++) sum += add(input.parse(args));
      if (sum !== 3 * CALLS) throw new Error('add is broken');
    },
    // The same fields toolctx's tool.started and tool.finished carry, kept the same way.
    byHand: async () => {
      for (let i = 0; i < CALLS; i++) {
        const callId = `call_${i}`;
        const started = { tool: 'add' };
        recorded.push({
          type: 'tool.started',
          seq: ++seq,
          ts: Date.now(),
          data: started,
          runId: 'run',
          callId,
        });
        const content = await add(input.parse(args));
        const data = { tool: 'add', durationMs: 0 };
        recorded.push({ type: 'tool.finished', seq: ++seq, ts: Date.now(), data, runId: 'run', callId });
        if (content !== 3) throw new Error('add is broken');
      }
    },
    toolctx: async () => {
      for (let i = 0; i < CALLS; i++) await keeping.call({ tool: 'add', args });
      if (recorded.length !== 2 * CALLS) throw new Error('The recording sink missed events.');
    },
    keepingNothing: async () => {
      const before = dropped;
      for (let i = 0; i < CALLS; i++) await quiet.call({ tool: 'add', args });
      if (dropped - before !== 2 * CALLS) throw new Error('The quiet sink missed events.');
    },
  };
}

/**
 * (a) Nanoseconds per call of one side (see {@link sides}), the median of 5 rounds of 200,000 calls
 * after one untimed round.
 *
 * What a recording costs depends on how long it lives, not only on who makes it: V8 copies a kept
 * object when it collects the young generation, so a record dropped every 20,000 calls, about as
 * often as the collector runs, measured 0.3–0.7 µs a call by hand, and the same loop kept for
 * 200,000 calls 1.7 µs. So each round keeps what it records until it ends, as a host keeps a run's
 * record, and starts from a collected heap (`gc()`: isolated.mjs exposes it). Each side needs a
 * process of its own: run after the recording sides in one process, with the MCP SDK loaded, the
 * sink that keeps nothing measured 1.7 µs a call, against 0.5 µs alone.
 */
export async function callSide(name) {
  if (typeof gc !== 'function') throw new Error('callSide needs --expose-gc: run it through isolated.mjs.');
  const made = sides();
  const side = made[name];
  if (typeof side !== 'function') throw new Error(`No side "${name}" in call-overhead.mjs.`);
  const { side: ms } = await interleaved({ side }, 5, {
    before: () => {
      made.recorded.length = 0;
      gc();
    },
  });
  return (ms * 1e6) / CALLS;
}

/** The names of {@link callSide}'s sides, in the order run.mjs prints them. */
export const SIDES = ['direct', 'byHand', 'toolctx', 'keepingNothing'];

/**
 * (a) The MCP SDK's client against a plain SDK server and against `serveMcp`, over its in-memory
 * transport, beside `run.call` in the same process (a recording sink, cleared every 20,000 calls).
 */
export async function mcpOverhead() {
  // Loaded here, not at the top: callSide's processes load neither.
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { serveMcp } = await import('@toolctx/core/mcp');
  const sink = recordingSink();
  const run = createRuntime({ tools: [addTool], sinks: [sink] }).startRun({});
  const toolctx = await nsPerOp(async (n) => {
    sink.events.length = 0;
    for (let i = 0; i < n; i++) await run.call({ tool: 'add', args });
  });
  await run.end();

  const plain = new McpServer({ name: 'plain', version: '0' });
  plain.registerTool('add', { description: 'Adds two numbers.', inputSchema: input.shape }, (a) => ({
    content: [{ type: 'text', text: String(add(a)) }],
  }));
  const plainClient = await mcpClientFor(plain);
  const mcpCall = (client) => async (n) => {
    for (let i = 0; i < n; i++) await client.callTool({ name: 'add', arguments: args });
  };
  const mcpSdk = await nsPerOp(mcpCall(plainClient), { n: 2_000 });
  const servedClient = await mcpClientFor(
    serveMcp(createRuntime({ tools: [addTool], sinks: [recordingSink()] })),
  );
  const served = await nsPerOp(mcpCall(servedClient), { n: 2_000 });
  await plainClient.close();
  await servedClient.close();
  return { toolctx, mcpSdk, served };
}

export async function growth() {
  // Each round makes a fresh run per size, fills it with `earlier` events, then times 2,000 calls;
  // the sizes take turns within a round, so warm-up and a slow patch fall on all of them alike.
  const sizes = [10, 1_000, 100_000];
  const samples = new Map(sizes.map((earlier) => [earlier, []]));
  for (let round = 0; round < 8; round++) {
    for (const earlier of sizes) {
      const sink = recordingSink();
      const run = createRuntime({ tools: [addTool], sinks: [sink] }).startRun({});
      // Each call records two events (tool.started, tool.finished); run.started is the first.
      while (sink.events.length < earlier) await run.call({ tool: 'add', args });
      const calls = 2_000;
      const started = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) await run.call({ tool: 'add', args });
      const ns = Number(process.hrtime.bigint() - started) / calls;
      if (round > 0) samples.get(earlier).push(ns);
      await run.end();
    }
  }
  return sizes.map((earlier) => ({ earlier, ns: median(samples.get(earlier)) }));
}
