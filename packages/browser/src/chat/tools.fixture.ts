// The tools the chat tests run, in the page and in the Web Worker door alike.
import { defineTool, ToolctxError } from '@toolctx/core';
import { z } from 'zod';

/** What the tools let a test see: how often getCity ran, whether watch saw its signal fire. */
export interface Seen {
  ran: number;
  aborted: boolean;
}

/** getCity (progress, then waits for `lookedUp`), saveNote (an artifact), sendMail (approval), watch, failing, was_aborted. */
export function chatFixtureTools(seen: Seen, lookedUp: () => Promise<unknown>) {
  return [
    defineTool({
      name: 'getCity',
      description: "The user's city.",
      inputSchema: z.object({ country: z.string() }),
      execute: async ({ country }, ctx) => {
        seen.ran++;
        ctx.progress({ message: `looking up a city in ${country}`, done: 1, total: 2 });
        await lookedUp();
        return { city: country === 'PT' ? 'Lisbon' : 'Paris' };
      },
    }),
    defineTool({
      name: 'saveNote',
      description: 'Saves a note.',
      inputSchema: z.object({ text: z.string() }),
      effect: 'write',
      execute: async ({ text }, ctx) => (await ctx.artifacts.put({ kind: 'note', data: text })).ref,
    }),
    defineTool({
      name: 'sendMail',
      description: 'Sends a mail.',
      inputSchema: z.object({ to: z.string() }),
      effect: 'send',
      needsApproval: true,
      execute: ({ to }) => `sent to ${to}`,
    }),
    defineTool({
      name: 'watch',
      description: 'Runs until cancelled.',
      inputSchema: z.object({}),
      execute: async (_args, ctx) => {
        ctx.progress({ message: 'watching' });
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
        seen.aborted = true;
        return 'stopped';
      },
    }),
    defineTool({
      name: 'failing',
      description: 'Fails.',
      inputSchema: z.object({}),
      execute: () => {
        throw new ToolctxError('tool-error', 'The mail server refused the address; ask for another.');
      },
    }),
    defineTool({
      name: 'was_aborted',
      description: 'Says whether watch saw its signal fire.',
      inputSchema: z.object({}),
      execute: () => seen.aborted,
    }),
  ];
}
