// A tool that needs approval pauses generateText as an AI SDK tool approval does: the result has
// a tool-approval-request, and the next generateText, given the person's tool-approval-response,
// runs the call through toolctx's approval (its one-use token checks the arguments are those asked about).
import { createRuntime, defineTool } from '@toolctx/core';
import { toAiSdkTools } from '@toolctx/core/ai-sdk';
import { createMemoryApprovalPort } from '@toolctx/core/memory';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { z } from 'zod';

const publishNote = defineTool({
  name: 'publish_note',
  description: 'Publishes a note.',
  effect: 'write',
  inputSchema: z.object({ text: z.string() }),
  needsApproval: true, // the AI SDK asks; a port that decides at once does not pause
  execute: ({ text }) => `published: ${text}`,
});
// A port that leaves every request to a person: the AI SDK's approval is that person.
const runtime = createRuntime({ tools: [publishNote], approval: createMemoryApprovalPort() });
const run = runtime.startRun({ identity: { tenant: 'acme', principal: 'ana' } });
const tools = toAiSdkTools(run);
const messages: ModelMessage[] = [{ role: 'user', content: 'Publish "hello".' }];

for (;;) {
  const result = await generateText({
    model: 'openai/gpt-5-mini',
    tools,
    stopWhen: stepCountIs(5),
    messages,
  });
  messages.push(...result.response.messages);
  const requests = result.content.filter((part) => part.type === 'tool-approval-request');
  if (requests.length === 0) {
    console.log(result.text);
    break;
  }
  // Ask the person here; in useChat, addToolApprovalResponse({ id, approved }) does this.
  messages.push({
    role: 'tool',
    content: requests.map(({ approvalId }) => ({
      type: 'tool-approval-response',
      approvalId,
      approved: true,
    })),
  });
}
await run.end();
