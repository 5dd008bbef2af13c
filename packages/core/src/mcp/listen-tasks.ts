// `subscriptions/listen` for tasks (`notifications: { taskIds }`), which the SDK's own listen router
// does not know: a stream that acknowledges the task ids, then sends `notifications/tasks` (the
// task as `tasks/get` answers it) each time one of them changes. Only the caller's own tasks are
// ever sent; another's id is acknowledged like any other and stays silent.
import { PROTOCOL_VERSION_META_KEY, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import { encodeSseBytes, sseHeaders } from '../sse/encode-sse.js';
import { detailedTask, type McpTaskHost, tasksExtension } from './tasks.js';

/** The most task ids one listen follows; more are not acknowledged. */
const maxTaskIds = 32;

interface ListenRequest {
  id?: string | number;
  method?: string;
  params?: {
    notifications?: { taskIds?: unknown };
    _meta?: Record<string, unknown>;
  };
}

/** How a listen reads tasks: whose they are, and how often it looks again. */
export interface TaskListen {
  host: McpTaskHost;
  /** How often each followed task is read, in ms. */
  pollMs: number;
  /** A keep-alive comment this often, in ms, so a proxy does not close a quiet stream. */
  keepAliveMs?: number;
}

/**
 * Answers a `subscriptions/listen` whose filter names `taskIds`, or `undefined` for any other
 * request (the SDK serves it). `owner` is whose tasks the caller may follow; `parsedBody`, when
 * the caller has parsed the body already, is read instead of a clone of it.
 */
export async function listenForTasks(
  request: Request,
  owner: string,
  listen: TaskListen,
  parsedBody?: unknown,
): Promise<Response | undefined> {
  if (request.method !== 'POST' || request.headers.get('mcp-method') !== 'subscriptions/listen')
    return undefined;
  const message = (parsedBody ??
    (await request
      .clone()
      .json()
      .catch(() => undefined))) as ListenRequest | undefined;
  const asked = message?.params?.notifications?.taskIds;
  if (message?.method !== 'subscriptions/listen' || !Array.isArray(asked)) return undefined;
  const id = message.id ?? null;
  const meta = message.params?._meta;
  const capabilities = meta?.['io.modelcontextprotocol/clientCapabilities'] as
    | { extensions?: Record<string, unknown> }
    | undefined;
  if (typeof meta?.[PROTOCOL_VERSION_META_KEY] !== 'string' || !capabilities) {
    return refusal(
      id,
      -32602,
      'Invalid params: _meta must name the protocol version and the client capabilities.',
    );
  }
  if (capabilities.extensions?.[tasksExtension] === undefined) {
    return refusal(
      id,
      -32021,
      `Following tasks needs the ${tasksExtension} extension in the client capabilities.`,
      {
        requiredCapabilities: { extensions: { [tasksExtension]: {} } },
      },
    );
  }
  const taskIds = [...new Set(asked.filter((taskId): taskId is string => typeof taskId === 'string'))].slice(
    0,
    maxTaskIds,
  );
  return new Response(follow(id, owner, taskIds, listen, request.signal), {
    headers: sseHeaders,
  });
}

function follow(
  subscriptionId: string | number | null,
  owner: string,
  taskIds: string[],
  { host, pollMs, keepAliveMs = 15_000 }: TaskListen,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  const stamp = { [SUBSCRIPTION_ID_META_KEY]: subscriptionId };
  const sent = new Map<string, string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (data: string) => {
        if (!closed) controller.enqueue(data === '' ? keepAlive : encodeSseBytes({ event: 'message', data }));
      };
      const notify = (method: string, params: Record<string, unknown>) =>
        send(JSON.stringify({ jsonrpc: '2.0', method, params: { ...params, _meta: stamp } }));
      const stop = () => {
        closed = true;
        clearTimeout(timer);
        try {
          controller.close();
        } catch {
          // Closed by the reader already.
        }
      };
      signal.addEventListener('abort', stop, { once: true });
      notify('notifications/subscriptions/acknowledged', { notifications: { taskIds } });
      let quiet = 0;
      const look = async () => {
        for (const taskId of taskIds) {
          const task = await host.get(owner, taskId).catch(() => undefined);
          if (!task || closed) continue;
          const seen = `${task.status}\0${task.updatedAt}`;
          if (sent.get(taskId) === seen) continue;
          sent.set(taskId, seen);
          quiet = 0;
          notify('notifications/tasks', detailedTask(task));
        }
        quiet += pollMs;
        if (quiet >= keepAliveMs) {
          quiet = 0;
          send('');
        }
        if (!closed) timer = setTimeout(look, pollMs);
      };
      void look();
    },
    cancel() {
      closed = true;
      clearTimeout(timer);
    },
  });
}

const keepAlive = new TextEncoder().encode(': keepalive\n\n');

function refusal(id: string | number | null, code: number, message: string, data?: unknown): Response {
  const error = { code, message, ...(data === undefined ? {} : { data }) };
  return Response.json({ jsonrpc: '2.0', id, error }, { status: 400 });
}
