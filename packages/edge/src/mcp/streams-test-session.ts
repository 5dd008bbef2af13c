// The MCP session of the stream tests (test/worker/mcp-streams.test.ts): a tool that holds its
// stream until it is aborted or released and says whether its teardown ran, and, through the
// public hook, prompts that send notifications on the session's GET stream or close their own stream.
import type { McpServer } from '@modelcontextprotocol/server';
import { createRuntime, defineTool } from '@toolctx/core';
import { z } from 'zod';
import { createMcpSession } from './mcp-session.js';

/** What happened to each `hold` call, by its id, in this session object's isolate. */
const held = new Map<string, { aborted: boolean; tornDown: boolean }>();
/** How to end each running `hold` call with a result, by its id. */
const releases = new Map<string, () => void>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tools = [
  defineTool({
    name: 'hold',
    description:
      'Reports progress, then runs until its signal fires or `release` names it; its teardown is recorded.',
    inputSchema: z.object({ id: z.string() }),
    execute: ({ id }, ctx) =>
      new Promise((resolve, reject) => {
        const state = { aborted: false, tornDown: false };
        held.set(id, state);
        releases.set(id, () => resolve({ released: id }));
        ctx.onTeardown(
          () => {
            state.tornDown = true;
            releases.delete(id);
          },
          { scope: 'call' },
        );
        ctx.progress({ message: 'holding' });
        ctx.signal.addEventListener('abort', () => {
          state.aborted = true;
          reject(ctx.signal.reason);
        });
      }),
  }),
  defineTool({
    name: 'release',
    description: 'Ends the running `hold` call with this id with a result; tells whether one was running.',
    inputSchema: z.object({ id: z.string() }),
    execute: ({ id }) => {
      const release = releases.get(id);
      release?.();
      return { released: release !== undefined };
    },
  }),
  defineTool({
    name: 'held',
    description: 'Tells what happened to the `hold` call with this id.',
    inputSchema: z.object({ id: z.string() }),
    execute: ({ id }) => held.get(id) ?? { started: false },
  }),
];

export class StreamsMcpSession extends createMcpSession(() => createRuntime({ tools })) {
  protected override configureServer(server: McpServer) {
    // A prompt, as serveMcp owns the tools: getting it sends the notifications first.
    server.registerPrompt(
      'broadcast',
      {
        description: 'Sends `count` log messages on the GET stream, `ms` apart, then answers.',
        argsSchema: { count: z.string(), ms: z.string() },
      },
      async ({ count, ms }) => {
        for (let n = 1; n <= Number(count); n++) {
          await sleep(Number(ms));
          // No related request: the transport sends it on the session's GET stream.
          await server.server.notification({
            method: 'notifications/message',
            params: { level: 'info', data: { n } },
          });
        }
        return { messages: [{ role: 'user', content: { type: 'text', text: `${count} sent` } }] };
      },
    );
    // SEP-1699 polling through the hook: the handler closes its stream, the client resumes.
    server.registerPrompt(
      'poll',
      { description: 'Closes its stream at once, and answers `ms` later.', argsSchema: { ms: z.string() } },
      async ({ ms }, extra) => {
        extra.http?.closeSSE?.();
        await sleep(Number(ms));
        return { messages: [{ role: 'user', content: { type: 'text', text: 'polled' } }] };
      },
    );
  }
}
