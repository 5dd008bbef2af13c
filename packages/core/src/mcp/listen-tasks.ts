// `subscriptions/listen` for tasks (`notifications: { taskIds }`), which the SDK's own listen router
// does not know: a stream that acknowledges the task ids, then sends `notifications/tasks` (the
// task as `tasks/get` answers it) each time one of them changes. Only the caller's own tasks are
// ever sent; another's id is acknowledged like any other and stays silent. A task is read until it
// settles (or is found to be none of the caller's), so a quiet listen costs keep-alives only; an
// identity holds at most `maxListens` of them open in one process.
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
  /** Whether the server serves artifacts as resources: a task's result then links the ones its call saved. */
  servesArtifacts: boolean;
  /** A keep-alive comment this often, in ms, so a proxy does not close a quiet stream. */
  keepAliveMs?: number;
  /** The most listens for tasks one identity holds open at once (in this process). Default 8. */
  maxListens?: number;
  /** Open listens by identity: one map per handler, so the bound holds across its requests. */
  open?: Map<string, number>;
}

const settled = new Set(['completed', 'failed', 'cancelled']);

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
  const open = listen.open ?? new Map<string, number>();
  const maxListens = listen.maxListens ?? 8;
  const count = open.get(owner) ?? 0;
  if (count >= maxListens) {
    return refusal(
      id,
      -32000,
      `Too many open listens for tasks: at most ${maxListens} per identity. Close one (or follow several task ids in one listen) and try again.`,
      undefined,
      429,
    );
  }
  open.set(owner, count + 1);
  const release = () => {
    const left = (open.get(owner) ?? 1) - 1;
    if (left > 0) open.set(owner, left);
    else open.delete(owner);
  };
  return new Response(follow(id, owner, taskIds, listen, request.signal, release), {
    headers: sseHeaders,
  });
}

function follow(
  subscriptionId: string | number | null,
  owner: string,
  taskIds: string[],
  { host, pollMs, servesArtifacts, keepAliveMs = 15_000 }: TaskListen,
  signal: AbortSignal,
  release: () => void,
): ReadableStream<Uint8Array> {
  const stamp = { [SUBSCRIPTION_ID_META_KEY]: subscriptionId };
  const sent = new Map<string, string>();
  // The tasks still read: one leaves once it has settled and been sent, or is none of the caller's.
  const following = new Set(taskIds);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const end = () => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    release();
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (data: string) => {
        if (!closed) controller.enqueue(data === '' ? keepAlive : encodeSseBytes({ event: 'message', data }));
      };
      const notify = (method: string, params: Record<string, unknown>) =>
        send(JSON.stringify({ jsonrpc: '2.0', method, params: { ...params, _meta: stamp } }));
      const stop = () => {
        end();
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
        for (const taskId of following) {
          const task = await host.get(owner, taskId).catch(() => null);
          if (closed) return;
          if (task === null) continue; // the host failed this read: look again next time
          if (!task) {
            following.delete(taskId); // none of the caller's, or gone
            continue;
          }
          if (settled.has(task.status)) following.delete(taskId);
          const seen = `${task.status}\0${task.updatedAt}`;
          if (sent.get(taskId) === seen) continue;
          sent.set(taskId, seen);
          quiet = 0;
          notify('notifications/tasks', detailedTask(task, owner, servesArtifacts));
        }
        // Nothing left to read: wake only for the keep-alive.
        const wait = following.size > 0 ? pollMs : keepAliveMs;
        quiet += wait;
        if (quiet >= keepAliveMs) {
          quiet = 0;
          send('');
        }
        if (!closed) timer = setTimeout(look, wait);
      };
      void look();
    },
    cancel: end,
  });
}

const keepAlive = new TextEncoder().encode(': keepalive\n\n');

function refusal(
  id: string | number | null,
  code: number,
  message: string,
  data?: unknown,
  status = 400,
): Response {
  const error = { code, message, ...(data === undefined ? {} : { data }) };
  return Response.json({ jsonrpc: '2.0', id, error }, { status });
}
