// (a) per-call overhead of run.call for a trivial tool, against the function called directly and
// against the MCP SDK (a plain SDK server, and toolctx's serveMcp) over its in-memory transport.
// (f) the same per-call cost after 10, 1,000 and 100,000 earlier events in the run.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createRuntime, defineTool } from '@toolctx/core';
import { serveMcp } from '@toolctx/core/mcp';
import { z } from 'zod';
import { median, nsPerOp } from './measure.mjs';

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
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(clientSide);
  return client;
}

export async function callOverhead() {
  const direct = await nsPerOp(
    (n) => {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += add(input.parse(args));
      return sum;
    },
    { n: 200_000 },
  );

  // The floor a recording sink sets: the direct call plus keeping the two events a call records
  // (the same fields toolctx's tool.started and tool.finished carry). What the sink keeps alive
  // costs garbage-collection work that no runtime can avoid.
  const recorded = [];
  let seq = 0;
  const directRecorded = await nsPerOp(async (n) => {
    recorded.length = 0;
    for (let i = 0; i < n; i++) {
      const callId = `call_${i}`;
      recorded.push({
        type: 'tool.started',
        seq: ++seq,
        ts: Date.now(),
        data: { tool: 'add' },
        runId: 'run',
        callId,
      });
      const content = await add(input.parse(args));
      const ts = Date.now();
      recorded.push({
        type: 'tool.finished',
        seq: ++seq,
        ts,
        data: { tool: 'add', durationMs: 0 },
        runId: 'run',
        callId,
      });
      if (content !== 3) throw new Error('add is broken');
    }
  });

  const sink = recordingSink();
  const runtime = createRuntime({ tools: [addTool], sinks: [sink] });
  const run = runtime.startRun({});
  const toolctx = await nsPerOp(async (n) => {
    sink.events.length = 0;
    for (let i = 0; i < n; i++) await run.call({ tool: 'add', args });
  });

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
  await run.end();
  return { direct, directRecorded, toolctx, mcpSdk, served };
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
