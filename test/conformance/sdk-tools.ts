// The sampling, free-form elicitation and stream-closing fixtures, added with the SDK's own
// registerTool to the McpServer: asking the client for a model's reply or for the person's input,
// or closing the call's SSE stream, is outside toolctx (its own elicitation is for approvals), and serveMcp serves tools registered so after the
// runtime's. Both set-ups call this one function, as they do addConformancePrompts.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

type Form = ElicitRequestFormParams['requestedSchema'];

export function addConformanceSdkTools(server: McpServer): McpServer {
  const low = server.server;
  const elicit = (message: string, requestedSchema: Form, relatedRequestId: string | number) =>
    low.elicitInput({ message, requestedSchema }, { relatedRequestId });

  server.registerTool(
    'test_sampling',
    { description: 'Asks the client for an LLM reply to the prompt.', inputSchema: { prompt: z.string() } },
    async ({ prompt }, extra) => {
      const reply = await low.createMessage(
        { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 },
        { relatedRequestId: extra.requestId },
      );
      const text = reply.content.type === 'text' ? reply.content.text : `[${reply.content.type}]`;
      return { content: [{ type: 'text', text: `LLM response: ${text}` }] };
    },
  );
  server.registerTool(
    'test_elicitation',
    { description: 'Asks the person for a username and an email.', inputSchema: { message: z.string() } },
    async ({ message }, extra) => {
      const answer = await elicit(
        message,
        {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
        extra.requestId,
      );
      return {
        content: [
          {
            type: 'text',
            text: `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
          },
        ],
      };
    },
  );
  server.registerTool(
    'test_elicitation_sep1034_defaults',
    { description: 'Asks for five fields, each with a default.' },
    async (extra) => {
      const answer = await elicit(
        'Please review the defaults.',
        {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: {
              type: 'string',
              description: 'User status',
              enum: ['active', 'inactive', 'pending'],
              default: 'active',
            },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
        },
        extra.requestId,
      );
      return { content: [{ type: 'text', text: completed(answer) }] };
    },
  );
  server.registerTool(
    'test_elicitation_sep1330_enums',
    { description: 'Asks with each of the five enum forms.' },
    async (extra) => {
      const answer = await elicit(
        'Please choose.',
        {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
        },
        extra.requestId,
      );
      return { content: [{ type: 'text', text: completed(answer) }] };
    },
  );
  // SEP-1699 polling (scenario server-sse-polling): the call closes its own SSE stream at once and
  // answers later; the client resumes with Last-Event-ID and gets the answer from the event store.
  server.registerTool(
    'test_reconnection',
    { description: 'Closes its SSE stream at once, and answers half a second later.' },
    async (extra) => {
      extra.closeSSEStream?.();
      await new Promise((resolve) => setTimeout(resolve, 500));
      return { content: [{ type: 'text', text: 'Reconnection test completed' }] };
    },
  );
  return server;
}

function completed(answer: { action: string; content?: Record<string, unknown> }): string {
  return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
}
