import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { isToolParts } from '../content/content-part.js';
import { renderParts } from '../content/render-parts.js';
import type { ProgressPayload, ToolResult } from '../context/types.js';
import { fromMcpResult } from '../mcp/content.js';
import { fromMcpProgress, remoteErrorInfo } from '../mcp/wire.js';
import type { DoorCallOutcome, DoorClient } from './door-suite-kit.js';

/** Options of {@link mcpDoorClient}. */
export interface McpDoorClientOptions {
  /** Closes what the client was connected over (the transport, the server). Default: `client.close()`. */
  close?: () => Promise<void>;
}

/**
 * A `DoorClient` over a connected official MCP `Client`, for `describeDoor`: a call sends a
 * progress token and keeps the notifications it gets; MCP content beyond text becomes the
 * result's `parts` (and its transcript, as the runtime writes it); an `isError` result becomes a failed
 * `ToolResult` with the server's `ErrorInfo`; an abort (the SDK sends `notifications/cancelled`)
 * settles as `aborted`. MCP has no runs, so `end` refuses and artifacts cannot be read back.
 *
 * @example
 * ```ts
 * import { describeDoor, mcpDoorClient } from '@toolctx/core/testing';
 * import { mcpDoor } from '@toolctx/core/mcp';
 * import type { Client } from '@modelcontextprotocol/client';
 * declare function connectedClient(): Promise<Client>; // an MCP client connected to your server
 * describeDoor('mcp', {
 *   supplies: { ...mcpDoor, artifacts: false, credentials: true, events: false },
 *   connect: async () => mcpDoorClient(await connectedClient()),
 * });
 * ```
 */
export function mcpDoorClient(client: Client, options: McpDoorClientOptions = {}): DoorClient {
  return {
    async call(tool, args, { signal } = {}): Promise<DoorCallOutcome> {
      const progress: ProgressPayload[] = [];
      let result: ToolResult;
      try {
        const answer: CallToolResult = await client.callTool(
          { name: tool, arguments: args as Record<string, unknown> },
          {
            onprogress: (notification) => progress.push(fromMcpProgress(notification)),
            ...(signal ? { signal } : {}),
          },
        );
        result = toToolResult(answer);
      } catch (thrown) {
        if (!signal?.aborted) throw thrown;
        result = {
          ok: false,
          error: { kind: 'aborted', message: 'The call was cancelled by its caller.', retryable: false },
        };
      }
      return { result, progress, events: [] };
    },
    async end(scope) {
      throw new Error(`An MCP call stands alone: there is no ${scope} to end.`);
    },
    async readArtifact() {
      throw new Error('MCP has no route to read artifacts back.');
    },
    close: options.close ?? (() => client.close()),
  };
}

function toToolResult(answer: CallToolResult): ToolResult {
  const text = answer.content.every((part) => part.type === 'text')
    ? answer.content.map((part) => (part as { text: string }).text).join('\n')
    : JSON.stringify(answer.content);
  if (answer.isError) {
    return {
      ok: false,
      error: remoteErrorInfo(answer) ?? { kind: 'tool-error', message: text, retryable: false },
    };
  }
  const returned = fromMcpResult(answer.content, answer.structuredContent);
  if (isToolParts(returned)) {
    const parts = [...returned.parts];
    return { ok: true, value: returned.value, content: renderParts(parts), parts };
  }
  return { ok: true, value: answer.structuredContent ?? text, content: text };
}
