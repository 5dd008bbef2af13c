// (b) progress reports per second from inside a tool, with no listener and with one. Each report
// passes the clone-safety check; with a listener, each also becomes a `tool.progress` event.
import { createRuntime, defineTool } from '@toolctx/core';
import { z } from 'zod';
import { median } from './measure.mjs';

const REPORTS = 200_000;

const reporter = defineTool({
  name: 'report',
  description: 'Reports progress `n` times and returns the nanoseconds it took.',
  inputSchema: z.object({ n: z.number() }),
  execute({ n }, ctx) {
    const started = process.hrtime.bigint();
    for (let done = 1; done <= n; done++) ctx.progress({ message: 'working', done, total: n });
    return Number(process.hrtime.bigint() - started);
  },
});

async function reportsPerSecond(options) {
  const runtime = createRuntime({ tools: [reporter], ...options });
  const run = runtime.startRun({});
  const samples = [];
  for (let r = 0; r < 8; r++) {
    const result = await run.call({ tool: 'report', args: { n: REPORTS } });
    if (!result.ok) throw new Error(`The progress benchmark's tool failed: ${result.error.message}`);
    if (r > 0) samples.push((REPORTS * 1e9) / Number(result.content));
  }
  await run.end();
  return median(samples);
}

export async function progressRate() {
  let seen = 0;
  const none = await reportsPerSecond({});
  const listened = await reportsPerSecond({
    sinks: [
      (event) => {
        if (event.type === 'tool.progress') seen++;
      },
    ],
  });
  if (seen === 0) throw new Error('The listener saw no progress event: the benchmark measured nothing.');
  return { none, listened };
}
