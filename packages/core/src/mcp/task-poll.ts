// A task poll answered without a server: `tasks/get` is what a client sends most (every
// `pollIntervalMs` while a task runs), and all it needs is the task's state from its host, so
// making an McpServer and a transport for it would cost several times the read itself.

import {
  classifyInboundRequest,
  type Implementation,
  SERVER_INFO_META_KEY,
} from '@modelcontextprotocol/server';
import { detailedTask, type McpTaskHost, tasksExtension } from './tasks.js';

const revision = '2026-07-28';

/**
 * Answers a `tasks/get` the way the SDK's handler with the task methods would, when the request is
 * plainly valid and its task is found: one JSON-RPC request on 2026-07-28 (its headers and its
 * `_meta` agreeing, as the SDK's classification checks), `Mcp-Name` the task id, a client that
 * declared the Tasks extension, `params` holding only `taskId` and `_meta`. Anything else, an
 * unknown task included, is `undefined`: the SDK's handler answers it, with its errors.
 */
export async function answerTaskPoll(
  request: Request,
  body: unknown,
  host: McpTaskHost,
  owner: string,
  serverInfo: Implementation,
  servesArtifacts: boolean,
): Promise<Response | undefined> {
  const poll = taskPollOf(request, body);
  if (!poll) return undefined;
  const task = await host.get(owner, poll.taskId);
  if (!task) return undefined;
  const result = {
    ...detailedTask(task, owner, servesArtifacts),
    resultType: 'complete',
    _meta: { [SERVER_INFO_META_KEY]: serverInfo },
  };
  return Response.json({ result, jsonrpc: '2.0', id: poll.id });
}

/** The poll's request id and task id, if `body` is a plainly valid `tasks/get` for the fast path. */
function taskPollOf(request: Request, body: unknown): { id: string | number; taskId: string } | undefined {
  const headers = request.headers;
  if (request.method !== 'POST' || headers.get('mcp-method') !== 'tasks/get') return undefined;
  if (headers.get('mcp-protocol-version') !== revision) return undefined;
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tasks/get') return undefined;
  if (
    Object.keys(body).some((key) => key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params')
  )
    return undefined;
  const { id, params } = body;
  if ((typeof id !== 'string' && typeof id !== 'number') || !isPlainObject(params)) return undefined;
  const { taskId, _meta: meta } = params;
  if (typeof taskId !== 'string' || headers.get('mcp-name') !== taskId) return undefined;
  if (Object.keys(params).some((key) => key !== 'taskId' && key !== '_meta')) return undefined;
  if (!isPlainObject(meta) || meta['io.modelcontextprotocol/protocolVersion'] !== revision) return undefined;
  const capabilities = meta['io.modelcontextprotocol/clientCapabilities'];
  const extensions = isPlainObject(capabilities) ? capabilities.extensions : undefined;
  if (!isPlainObject(extensions) || extensions[tasksExtension] === undefined) return undefined;
  return sdkTakes(body, meta) ? { id, taskId } : undefined;
}

// Whether the SDK takes a poll as a 2026 request, by its envelope: with everything else checked
// above, its verdict depends on `_meta` alone (its other keys: clientInfo, the log level, trace
// context), and a client sends the same one with every poll, so it is classified once per envelope.
const verdicts = new Map<string, boolean>();

function sdkTakes(body: Record<string, unknown>, meta: Record<string, unknown>): boolean {
  const envelope = JSON.stringify(meta);
  let takes = verdicts.get(envelope);
  if (takes === undefined) {
    const params = body.params as { taskId: string };
    const route = classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader: revision,
      mcpMethodHeader: 'tasks/get',
      mcpNameHeader: params.taskId,
      body,
    });
    takes = route.kind === 'modern' && route.messageKind === 'request';
    // Bounded: a client sending ever new envelopes costs a classification each, no memory; a
    // large envelope (up to the body's 1 MiB) is classified every time, never kept as a key.
    if (envelope.length > 4096) return takes;
    if (verdicts.size >= 256) verdicts.clear();
    verdicts.set(envelope, takes);
  }
  return takes;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
