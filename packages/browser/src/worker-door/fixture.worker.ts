// A Worker module for the tests: tools served through serveInWorker.
import { createRuntime, defineTool, ToolctxError } from '@toolctx/core';
import { z } from 'zod';
import { serveInWorker } from './serve-in-worker.js';

let abortSeen = false;
const never = () => new Promise<never>(() => {});

const tools = [
  defineTool({
    name: 'count_words',
    description: 'Counts words.',
    inputSchema: z.object({ text: z.string() }),
    execute: ({ text }) => text.split(/\s+/).filter(Boolean).length,
  }),
  defineTool({
    name: 'steps',
    description: 'Reports each step.',
    inputSchema: z.object({ count: z.number() }),
    execute: async ({ count }, ctx) => {
      for (let i = 1; i <= count; i++) {
        ctx.progress({ message: `step ${i}`, done: i, total: count });
        if (i % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
      }
      return count;
    },
  }),
  defineTool({
    name: 'wait_for_abort',
    description: 'Waits until its signal fires.',
    inputSchema: z.object({}),
    execute: async (_args, ctx) => {
      ctx.progress({ message: 'waiting' });
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      abortSeen = true;
      return 'saw the abort';
    },
  }),
  defineTool({
    name: 'was_aborted',
    description: 'Says whether wait_for_abort saw its signal fire.',
    inputSchema: z.object({}),
    execute: () => abortSeen,
  }),
  defineTool({
    name: 'fail_typed',
    description: 'Fails with a chosen kind.',
    inputSchema: z.object({}),
    execute: () => {
      throw new ToolctxError('policy-refused', 'Not while planning.', { details: { phase: 'plan' } });
    },
  }),
  defineTool({
    name: 'door',
    description: 'Names the door and run it runs in.',
    inputSchema: z.object({}),
    execute: (_args, ctx) => ({ runId: ctx.runId, hasDispatch: ctx.tools !== undefined }),
  }),
  defineTool({
    name: 'hang',
    description: 'Never finishes.',
    inputSchema: z.object({}),
    execute: async (_args, ctx) => {
      ctx.progress({ message: 'hanging' });
      return never();
    },
  }),
  defineTool({
    name: 'crash_later',
    description: 'Throws outside any call, killing the Worker.',
    inputSchema: z.object({}),
    execute: async (_args, ctx) => {
      ctx.progress({ message: 'about to crash' });
      setTimeout(() => {
        throw new Error('uncaught in the Worker');
      }, 5);
      return never();
    },
  }),
  defineTool({
    name: 'bad_progress',
    description: 'Reports progress that cannot be cloned.',
    inputSchema: z.object({}),
    execute: (_args, ctx) => {
      ctx.progress({ handle: () => 1 } as never);
      return 'reported';
    },
  }),
  defineTool({
    name: 'returns_function',
    description: 'Returns something that cannot be cloned.',
    inputSchema: z.object({}),
    execute: () => () => 1,
  }),
  defineTool({
    name: 'pay',
    description: 'Needs approval.',
    inputSchema: z.object({ amount: z.number() }),
    effect: 'write',
    needsApproval: true,
    execute: ({ amount }, ctx) => ({ paid: amount, approvalId: ctx.approval?.approvalId }),
  }),
  defineTool({
    name: 'pay_noted',
    description: 'Needs approval; its note becomes an object with a method, which postMessage refuses.',
    inputSchema: z.object({
      amount: z.number(),
      note: z.string().transform((text) => ({ text, shout: () => text.toUpperCase() })),
    }),
    effect: 'write',
    needsApproval: true,
    execute: ({ amount, note }) => ({ paid: amount, note: note.shout() }),
  }),
  defineTool({
    name: 'approved_wait',
    description: 'Needs approval, then waits until its signal fires (as wait_for_abort).',
    inputSchema: z.object({}),
    effect: 'write',
    needsApproval: true,
    execute: async (_args, ctx) => {
      ctx.progress({ message: 'waiting' });
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      abortSeen = true;
      return 'saw the abort';
    },
  }),
];

// Every approval waits for the page, which resumes it through the run.
serveInWorker(createRuntime({ tools, approval: { request: async () => 'pending' } }));
