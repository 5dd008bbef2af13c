// The demo's tools, defined once: the page's Web Worker and the Cloudflare Worker both import this
// file, so the two columns of the page run exactly the same code.
import { defineTool } from '@toolctx/core';
import { z } from 'zod';

/** The credential `sign_message` needs; each side supplies its own value, never shown. */
export const DEMO_CREDENTIAL = 'demo_api_key';

/** Waits `ms`, or rejects as soon as `signal` fires: how a tool honours cancellation. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The text `build_report` stores: one line per step. Exported so tests can check downloads. */
export function reportText(steps: number): string {
  const lines = Array.from({ length: steps }, (_, i) => `✓ step ${i + 1} of ${steps} checked`);
  return `toolctx demo report\n${lines.join('\n')}\n`;
}

/** A long, multi-step tool: verbatim progress with done/total, and a report saved as an artifact. */
export const buildReport = defineTool({
  name: 'build_report',
  description: 'Checks `steps` items one by one, reporting each, then saves a report as an artifact.',
  inputSchema: z.object({
    steps: z.number().int().min(1).max(200),
    delayMs: z.number().int().min(0).max(5000).default(300),
  }),
  effect: 'write',
  async execute({ steps, delayMs }, ctx) {
    for (let done = 1; done <= steps; done++) {
      await sleep(delayMs, ctx.signal);
      ctx.progress({ message: `Checked item ${done} of ${steps}`, done, total: steps });
    }
    const report = await ctx.artifacts.put({
      kind: 'report',
      data: reportText(steps),
      mediaType: 'text/plain; charset=utf-8',
      label: `report-${steps}-steps.txt`,
    });
    return { steps, report: report.ref, bytes: report.bytes };
  },
});

/** A tool a person must approve first: it publishes a note (saved as an artifact). */
export const publishNote = defineTool({
  name: 'publish_note',
  description: 'Publishes a short note. Needs approval before it runs.',
  inputSchema: z.object({ text: z.string().min(1).max(500) }),
  effect: 'write',
  needsApproval: true,
  async execute({ text }, ctx) {
    const note = await ctx.artifacts.put({
      kind: 'note',
      data: text,
      mediaType: 'text/plain; charset=utf-8',
      label: 'note.txt',
    });
    return { published: true, note: note.ref };
  },
});

/**
 * Uses a credential: signs a message with HMAC-SHA-256 under the demo key. The result carries
 * the signature and the key's name, never the key.
 */
export const signMessage = defineTool({
  name: 'sign_message',
  description: 'Signs a message with the demo API key (HMAC-SHA-256) and returns the signature.',
  inputSchema: z.object({ message: z.string().min(1).max(1000) }),
  needs: { credential: DEMO_CREDENTIAL },
  async execute({ message }, ctx) {
    // `needs` resolves the credential before execute, or the call fails without running.
    const secret = ctx.credential!.value;
    const encoder = new TextEncoder();
    const key = await crypto.subtle.importKey(
      'raw',
      encoder.encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
    const signature = Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
    return { credential: DEMO_CREDENTIAL, algorithm: 'HMAC-SHA-256', signature };
  },
});

/** The time limit of `gather_sources`: slowed enough, its line warns before it fires. */
export const GATHER_TIMEOUT_MS = 12_000;

/**
 * A tool whose pace the visitor sets: one report per source, `paceMs` apart. Slowed past the
 * widget's stall threshold its line says it has been silent; near `GATHER_TIMEOUT_MS` it says
 * when it times out, and past it the call fails as a timeout.
 */
export const gatherSources = defineTool({
  name: 'gather_sources',
  description: 'Looks up `count` sources on a topic, one at a time, `paceMs` apart.',
  inputSchema: z.object({
    topic: z.string().min(1).max(100),
    count: z.number().int().min(1).max(10).default(3),
    paceMs: z.number().int().min(0).max(10_000).default(400),
  }),
  effect: 'read',
  timeoutMs: GATHER_TIMEOUT_MS,
  async execute({ topic, count, paceMs }, ctx) {
    const sources: string[] = [];
    for (let done = 1; done <= count; done++) {
      await sleep(paceMs, ctx.signal);
      sources.push(`${topic} source ${done}`);
      ctx.progress({ message: `Found source ${done} of ${count}`, done, total: count });
    }
    return { topic, sources };
  },
});

/**
 * A tool that asks its user mid-call (`ctx.ask`): which day, how long, online or not, and notes.
 * While it waits the call is `input_required` and its status line shows the form; the answer
 * reaches the tool checked against the form, or the person declines or cancels.
 */
export const scheduleMeeting = defineTool({
  name: 'schedule_meeting',
  description: 'Schedules a meeting on `topic`, asking the user for the day, the length and any notes.',
  inputSchema: z.object({ topic: z.string().min(1).max(100) }),
  // It would put a meeting in a calendar: not for a plan-phase run.
  effect: 'write',
  async execute({ topic }, ctx) {
    ctx.progress({ message: `Looking for free days for “${topic}”…` });
    const answer = await ctx.ask({
      message: `When shall we meet about “${topic}”?`,
      schema: {
        type: 'object',
        properties: {
          day: { type: 'string', format: 'date', title: 'Day', description: 'Any weekday.' },
          minutes: { type: 'integer', title: 'Length (minutes)', minimum: 15, maximum: 120, default: 30 },
          online: { type: 'boolean', title: 'Online', default: true },
          notes: { type: 'string', title: 'Notes', maxLength: 200 },
        },
        required: ['day', 'minutes'],
      },
    });
    if (answer.action !== 'accept') return { topic, scheduled: false, because: answer.action };
    const { day, minutes, online, notes } = answer.values;
    return { topic, scheduled: true, day, minutes, online, ...(notes ? { notes } : {}) };
  },
});

/** Every tool of the demo, for both runtimes. */
export const demoTools = [buildReport, publishNote, signMessage, gatherSources, scheduleMeeting];
