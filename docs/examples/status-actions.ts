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

// 1. A local run. Its `resume` decides approvals on its own; a running call is cancelled through
// the signal its request was given, so the page keeps one AbortController per call.
const runtime = createRuntime({ tools: [countWords, publishNote], approval: createMemoryApprovalPort() });
const run = runtime.startRun();
const controllers = new Map<string, AbortController>();
const asked = new Map<string, CallRequest>();
attachStatus(document.querySelector('#local')!, run, {
  actions: {
    cancel: (callId) => controllers.get(callId)?.abort(),
    // Events carry no arguments: the page says what it asked for ("Publish a note: text “Hello”").
    details: ({ callId }) => ({ title: publishNote.title, args: asked.get(callId)?.args }),
  },
});
function call(request: CallRequest & { toolCallId: string }) {
  const controller = new AbortController();
  controllers.set(request.toolCallId, controller);
  asked.set(request.toolCallId, request);
  return run
    .call({ ...request, signal: controller.signal })
    .finally(() => controllers.delete(request.toolCallId));
}
void call({ tool: 'count_words', args: { text: 'one two three' }, toolCallId: 'call_1' });
void call({ tool: 'publish_note', args: { text: 'Hello' }, toolCallId: 'call_2' });

// 2. A run on a toolctx server: its stream only reads, so the actions are its HTTP routes.
const server = 'https://tools.example.com';
const runId = 'run_123';
const headers = { authorization: 'Bearer <token>', 'content-type': 'application/json' };
// A refused request rejects, so the widget lets the button be pressed again.
async function post(path: string, body?: object): Promise<void> {
  const response = await fetch(`${server}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body ?? {}),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
}
attachStatus(document.querySelector('#remote')!, connectRun(server, runId, { headers }), {
  actions: {
    cancel: (callId) => post(`/runs/${runId}/calls/${callId}/cancel`),
    resume: (approvalId, decision) => post(`/approvals/${approvalId}`, { runId, ...decision }),
  },
});
