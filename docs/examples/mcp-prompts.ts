// Prompts, resources and completions are the MCP SDK's, not toolctx's: add them in
// `configureServer`, which gets the session's `McpServer` before it connects.

import { completable, type McpServer } from '@modelcontextprotocol/server';
import { createRuntime } from '@toolctx/core';
import { createMemoryArtifactStore } from '@toolctx/core/memory';
import { createMcpSession } from '@toolctx/edge/durable-objects';
import { z } from 'zod';
import { tools } from './tools.js';

// `summarise` saves an artifact: kept in the isolate's memory, shared by its session objects.
const runtimeFor = () => createRuntime({ tools, artifacts: createMemoryArtifactStore() });

export class PromptingMcpSession extends createMcpSession(runtimeFor) {
  protected override configureServer(server: McpServer) {
    server.registerPrompt(
      'review',
      {
        description: 'Asks for a review of a file in the given language.',
        // `completable` answers `completion/complete` for this argument.
        argsSchema: {
          language: completable(z.string(), (value) =>
            ['go', 'rust', 'typescript'].filter((l) => l.startsWith(value)),
          ),
        },
      },
      ({ language }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `Review this ${language} file.` } }],
      }),
    );
  }
}
