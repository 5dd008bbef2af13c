// Actions on the line they belong to: Cancel on each running call, Approve and Deny (with what is
// asked, in words) on each call waiting for approval. The page has <div id="local"> and <div id="remote">.
import { connectRun } from '@toolctx/browser/remote';
import { attachStatus } from '@toolctx/browser/status';
import { type CallRequest, createRuntime, defineTool } from '@toolctx/core';
import { createMemoryApprovalPort } from '@toolctx/core/memory';
import { z } from 'zod';
import { countWords } from './tools.js';

const publishNote = defineTool({
  name: 'publish_note',
  title: 'Publish a note',
  description: 'Publishes a short note. Needs a person’s approval.',
  inputSchema: z.object({ text: z.string() }),
  needsApproval: true,
  execute: async ({ text }) => ({ published: text }),
});

// 1. A local run. Its `cancel` and `resume` give Cancel, Approve and Deny on their own.
const runtime = createRuntime({ tools: [countWords, publishNote], approval: createMemoryApprovalPort() });
const run = runtime.startRun();
const asked = new Map<string, CallRequest>();
attachStatus(document.querySelector('#local')!, run, {
  actions: {
    // Events carry no arguments: the page says what it asked for ("Publish a note: text “Hello”").
    details: ({ callId }) => ({ title: publishNote.title, args: asked.get(callId)?.args }),
  },
});
function call(request: CallRequest & { toolCallId: string }) {
  asked.set(request.toolCallId, request);
  return run.call(request);
}
void call({ tool: 'count_words', args: { text: 'one two three' }, toolCallId: 'call_1' });
void call({ tool: 'publish_note', args: { text: 'Hello' }, toolCallId: 'call_2' });

// 2. A run on a toolctx server: connectRun's `cancel` and `resume` are its HTTP routes
// (`POST /runs/:runId/calls/:callId/cancel`, `POST /approvals/:id`).
const remote = connectRun('https://tools.example.com', 'run_123', {
  headers: { authorization: 'Bearer <token>' },
});
attachStatus(document.querySelector('#remote')!, remote);
