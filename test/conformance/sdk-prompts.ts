// The prompt and completion fixtures, added with the SDK's own API to the McpServer: prompts and
// completions are outside toolctx, and its public hooks for them are the server serveMcp returns
// (Node) and McpSession's configureServer (Worker). Both set-ups call this one function.
import { acceptedContent, completable, inputRequired, type McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** A 1×1 PNG. */
const png =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export function addConformancePrompts(server: McpServer): McpServer {
  server.registerPrompt('test_simple_prompt', { description: 'A prompt without arguments.' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with two arguments; arg1 completes.',
      argsSchema: z.object({
        arg1: completable(z.string().describe('First test argument'), (value) =>
          ['test', 'testing', 'tested'].filter((word) => word.startsWith(value)),
        ),
        arg2: z.string().describe('Second test argument'),
      }),
    },
    ({ arg1, arg2 }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
        },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    { description: 'A prompt embedding a resource.', argsSchema: z.object({ resourceUri: z.string() }) },
    ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: resourceUri,
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  );
  server.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image.' }, () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: png, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));
  // MCP 2026's input_required on a prompt (SEP-2322): the SDK's own rounds.
  const contextForm = {
    type: 'object' as const,
    properties: { context: { type: 'string' as const } },
    required: ['context'],
  };
  server.registerPrompt(
    'test_input_required_result_prompt',
    { description: 'A prompt that asks for its context first.' },
    (ctx) => {
      const answered = acceptedContent(
        ctx.mcpReq.inputResponses,
        'user_context',
        z.object({ context: z.string() }),
      );
      if (!answered) {
        return inputRequired({
          inputRequests: {
            user_context: inputRequired.elicit({
              message: 'What context should the prompt use?',
              requestedSchema: contextForm,
            }),
          },
        });
      }
      return {
        messages: [{ role: 'user', content: { type: 'text', text: `Context: ${answered.context}` } }],
      };
    },
  );
  return server;
}
