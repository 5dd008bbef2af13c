// A Worker whose runs report as much as asked (test and bench only): the HTTP door in front, one
// Durable Object per run, and one tool, `chatter`, that reports `events` progress events of about
// `bytes` bytes each, `perTurn` at a time with `everyMs` between. What slow readers of a chatty
// run cost is measured against it: test/worker/slow-readers.test.ts, test/bench/stalled-readers.mjs.
// Its log keeps 20,000 events, so a reader dropped anywhere in such a run can resume.
import { createRuntime, defineTool } from '@toolctx/core';
import { createToolServer, durableObjectRuns } from '@toolctx/edge';
import { createRunHost, type RunHostObject } from '@toolctx/edge/durable-objects';
import { z } from 'zod';

type Env = {
  RUNS: DurableObjectNamespace<RunHostObject<Env>>;
  /** `maxQueuedBytesPerStream`, for the bench's row with the bound lifted; unset, the default. */
  MAX_QUEUED_BYTES?: string;
};

const chatter = defineTool({
  name: 'chatter',
  description: 'Reports `events` progress events of about `bytes` bytes each.',
  inputSchema: z.object({
    events: z.number().int().min(1).max(20_000),
    bytes: z.number().int().min(0).max(65_536).default(2048),
    perTurn: z.number().int().min(1).default(10),
    everyMs: z.number().int().min(0).default(1),
  }),
  async execute({ events, bytes, perTurn, everyMs }, ctx) {
    const pad = 'x'.repeat(bytes);
    for (let done = 1; done <= events; done++) {
      ctx.progress({ done, total: events, pad });
      if (done % perTurn === 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    return { events };
  },
});

const runtime = createRuntime({ tools: [chatter] });

export class ChattyRunHost extends createRunHost<Env>(
  () => runtime,
  (env) => ({
    maxEvents: 20_000,
    maxStreamsPerRun: 64,
    ...(env.MAX_QUEUED_BYTES ? { maxQueuedBytesPerStream: Number(env.MAX_QUEUED_BYTES) } : {}),
  }),
) {}

export default createToolServer<Env>({
  runtimeFor: () => runtime,
  runs: (env) => durableObjectRuns(env.RUNS),
  authenticate: async () => ({ tenant: 'chatty', principal: 'reader' }),
});
