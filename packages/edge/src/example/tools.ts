import { defineTool, ToolctxError } from '@toolctx/core';
import { z } from 'zod';

/** Waits `ms`, or rejects as soon as `signal` fires: how a tool honours cancellation. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Reports progress over several steps. */
export const countSteps = defineTool({
  name: 'count_steps',
  description: 'Counts from 1 to `steps`, reporting each step as progress.',
  inputSchema: z.object({
    steps: z.number().int().min(1).max(100),
    delayMs: z.number().int().min(0).max(5000).default(50),
  }),
  // Safe to run again from the start: a count cut off by its host's restart is counted again.
  idempotent: true,
  async execute({ steps, delayMs }, ctx) {
    for (let done = 1; done <= steps; done++) {
      await sleep(delayMs, ctx.signal);
      ctx.progress({ message: `Step ${done} of ${steps}`, done, total: steps });
    }
    return { steps };
  },
});

/** Always fails: shows what a failure looks like on the wire (an ErrorInfo, never a stack). */
export const alwaysFails = defineTool({
  name: 'always_fails',
  description: 'Fails on purpose, to show how a failed call looks.',
  inputSchema: z.object({ reason: z.string().max(200).default('it was asked to') }),
  execute({ reason }) {
    throw new ToolctxError('tool-error', `always_fails failed because ${reason}.`);
  },
});

/** Slow, and honours its signal: cancelling it ends it at once. */
export const slowWait = defineTool({
  name: 'slow_wait',
  description: 'Waits `ms` milliseconds, reporting once a second; stops at once when cancelled.',
  inputSchema: z.object({ ms: z.number().int().min(0).max(600_000) }),
  async execute({ ms }, ctx) {
    const started = Date.now();
    ctx.progress({ message: 'Waiting…', done: 0, total: ms });
    while (Date.now() - started < ms) {
      await sleep(Math.min(1000, ms - (Date.now() - started)), ctx.signal);
      ctx.progress({ message: 'Waiting…', done: Date.now() - started, total: ms });
    }
    return { waitedMs: Date.now() - started };
  },
});

/** The example Worker's tools. */

/** Saves a note as an artifact in the caller's scope; the result carries the ref to fetch it by. */
export const saveNote = defineTool({
  name: 'save_note',
  description: 'Saves a text note and answers the ref it can be downloaded by.',
  inputSchema: z.object({ text: z.string().max(100_000), label: z.string().max(200).optional() }),
  effect: 'write',
  async execute({ text, label }, ctx) {
    const meta = await ctx.artifacts.put({
      kind: 'note',
      data: text,
      mediaType: 'text/plain; charset=utf-8',
      label,
    });
    return { ref: meta.ref, bytes: meta.bytes };
  },
});

/** `size` bytes of generated data from offset `at`: the same bytes for the same offsets. */
const generated = (at: number, size: number) => new Uint8Array(size).map((_, i) => (at + i) % 251);

/**
 * Makes `bytes` bytes, `chunkBytes` at a time and `delayMs` apart, and saves them as one
 * artifact as they are made (`putStream`), reporting progress after each chunk: how a tool saves
 * output larger than it should hold. The KV+R2 store sends it to R2 a 5 MiB part at a time.
 */
export const saveGenerated = defineTool({
  name: 'save_generated',
  description:
    'Generates `bytes` bytes of data, reporting progress, and saves them as one artifact; answers its ref.',
  inputSchema: z.object({
    bytes: z.number().int().min(1).max(25_000_000),
    chunkBytes: z.number().int().min(1).max(1_048_576).default(65_536),
    delayMs: z.number().int().min(0).max(5000).default(0),
    label: z.string().max(200).optional(),
  }),
  effect: 'write',
  async execute({ bytes, chunkBytes, delayMs, label }, ctx) {
    if (!ctx.artifacts.putStream) {
      throw new ToolctxError('no-store', 'save_generated needs an artifact store that streams (putStream).');
    }
    let made = 0;
    // Pulled one chunk at a time: a chunk is made when the store asks for it, never ahead.
    const data = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (made === bytes) return controller.close();
          if (delayMs > 0) await sleep(delayMs, ctx.signal);
          const size = Math.min(chunkBytes, bytes - made);
          controller.enqueue(generated(made, size));
          made += size;
          ctx.progress({ message: `Generated ${made} of ${bytes} bytes`, done: made, total: bytes });
        },
      },
      { highWaterMark: 0 },
    );
    const meta = await ctx.artifacts.putStream({
      kind: 'generated',
      data,
      mediaType: 'application/octet-stream',
      ...(label === undefined ? {} : { label }),
    });
    return { ref: meta.ref, bytes: meta.bytes, digest: meta.digest };
  },
});

/**
 * Needs a person's approval before it runs: the call waits, and `POST /approvals/:id` decides.
 * `delayMs` makes the approved call take that long (honouring its signal), to show that it can be
 * cancelled like any running call.
 */
export const publishNote = defineTool({
  name: 'publish_note',
  description: 'Publishes a note; a person approves each call first.',
  inputSchema: z.object({
    title: z.string().max(200),
    delayMs: z.number().int().min(0).max(600_000).default(0),
  }),
  effect: 'write',
  needsApproval: true,
  async execute({ title, delayMs }, ctx) {
    if (delayMs > 0) await sleep(delayMs, ctx.signal);
    return { published: title, approvalId: ctx.approval?.approvalId };
  },
});

/**
 * Asks its user mid-call (`ctx.ask`): which day, how long, and any notes. Safe to run again: a
 * call its host's restart cut off while it waited runs again and finds the answer it had.
 */
export const scheduleMeeting = defineTool({
  name: 'schedule_meeting',
  title: 'Schedule a meeting',
  description: 'Proposes a meeting about `topic`, asking the user for the day, its length and any notes.',
  inputSchema: z.object({
    topic: z.string().min(1).max(200),
    windowMs: z.number().int().min(1000).max(86_400_000).optional(),
  }),
  idempotent: true,
  async execute({ topic, windowMs }, ctx) {
    const answer = await ctx.ask({
      message: `When should we meet about “${topic}”?`,
      ...(windowMs === undefined ? {} : { windowMs }),
      schema: {
        type: 'object',
        properties: {
          day: {
            type: 'string',
            title: 'Day',
            enum: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
          },
          minutes: { type: 'integer', title: 'Length (minutes)', minimum: 15, maximum: 120, default: 30 },
          notes: { type: 'string', title: 'Notes', maxLength: 200 },
        },
        required: ['day', 'minutes'],
      },
    });
    if (answer.action !== 'accept') return { scheduled: false, answer: answer.action };
    return { scheduled: true, topic, ...answer.values };
  },
});

/** Sends its user to a page (a URL ask): what they enter there never passes through the call. */
export const connectCalendar = defineTool({
  name: 'connect_calendar',
  title: 'Connect a calendar',
  description: 'Asks the user to connect their calendar on the calendar’s own page.',
  inputSchema: z.object({}),
  async execute(_args, ctx) {
    const answer = await ctx.ask({
      message: 'Connect your calendar, then come back and say you are done.',
      url: 'https://calendar.example.com/connect',
    });
    return { connected: answer.action === 'accept' };
  },
});

export const exampleTools = [
  countSteps,
  alwaysFails,
  slowWait,
  saveNote,
  publishNote,
  saveGenerated,
  scheduleMeeting,
  connectCalendar,
];
