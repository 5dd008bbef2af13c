import { connectRun } from '@toolctx/browser/remote';
import type {
  ApprovalDecision,
  CallRequest,
  ErrorInfo,
  RunEvents,
  ToolEvent,
  ToolResult,
} from '@toolctx/core';
import { type AgentRun, type ArtifactRow, type CallHandle, rememberingArgs, type Side } from './side.js';

const API = '/api';
/** Where the page keeps the Worker run's id, so a reload reconnects instead of starting over. */
export const WORKER_RUN_KEY = 'toolctx-demo-worker-run';

/**
 * The same tools on the Cloudflare Worker: calls through the HTTP door, events through its SSE
 * stream (`connectRun`), artifacts in R2 and KV. The server decides who we are; the page sends
 * no identity. After a reload it reconnects to the run it kept in sessionStorage: the stream
 * replays the run's events, so calls still running keep their lines, and the door's listing
 * shows earlier artifacts again.
 */
export async function createWorkerSide(): Promise<Side> {
  const kept = await keptRun();
  const runId = kept?.runId ?? (await request<{ runId: string }>('POST', '/runs', {})).runId;
  const stream = kept?.stream ?? connectRun(API, runId)[Symbol.asyncIterator]();
  sessionStorage.setItem(WORKER_RUN_KEY, runId);
  const listeners = new Set<(event: ToolEvent) => void>();
  // Every event so far, for a listener that subscribes after the stream started (the widget).
  const seen: ToolEvent[] = [];
  const deliver = (event: ToolEvent) => {
    // An ended run cannot take calls: the next reload starts a new one.
    if (event.type === 'run.finished') sessionStorage.removeItem(WORKER_RUN_KEY);
    seen.push(event);
    for (const listener of listeners) listener(event);
  };
  void (async () => {
    if (kept) deliver(kept.first);
    for (let step = await stream.next(); !step.done; step = await stream.next()) deliver(step.value);
  })().catch((error: unknown) => console.warn("The Worker run's event stream stopped:", error));

  const cancel = async (callId: string) => {
    await request('POST', `/runs/${runId}/calls/${callId}/cancel`);
  };
  // The door's own verbs: a detached call (`Prefer: respond-async`) outlives this page, so a
  // reload reconnects to the run and watches it finish; its signal cancels it explicitly.
  const remote = connectRun(API, runId);
  // The door decides an approval with `POST /approvals/:id` and answers the resumed call's result.
  const decide = (approvalId: string, decision: ApprovalDecision) =>
    request<ToolResult>('POST', `/approvals/${encodeURIComponent(approvalId)}`, {
      runId,
      ...decision,
    }).catch((error: unknown): ToolResult => ({ ok: false, error: asErrorInfo(error) }));
  // The run's events are this side's one stream: toAiSdkTools subscribes once per call (for its
  // preliminary results), and a stream of the door's each time would open and abort a request.
  const events: RunEvents = {
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    [Symbol.asyncIterator]: () => remote[Symbol.asyncIterator](),
  };
  const { run, argsOf } = rememberingArgs<AgentRun>({
    runId,
    events,
    call: (call: CallRequest): Promise<ToolResult> =>
      remote
        .call({ ...call, toolCallId: call.toolCallId ?? `call_${crypto.randomUUID()}`, detached: true })
        .catch((error: unknown): ToolResult => ({ ok: false, error: asErrorInfo(error) })),
    resume: decide,
  });

  return {
    runId,
    events: {
      subscribe(listener) {
        for (const event of seen) listener(event);
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    run,
    call(tool, args): CallHandle {
      const callId = `call_${crypto.randomUUID()}`;
      return { callId, result: run.call({ tool, args, toolCallId: callId }) };
    },
    cancel,
    decide,
    // The door's answer to an ask (`POST /runs/:runId/asks/:askId`): a refusal is core's
    // `Answered`, which the widget shows in the form; a network failure rejects, and the form
    // says the answer was not sent.
    answer: (askId, answer) => remote.answer(askId, answer),
    // The door's listing of this identity's artifacts, labels included: one request however many
    // there are, and nothing that holds up the events (the column refreshes on each artifact.put).
    argsOf,
    listArtifacts: async () =>
      (
        await request<{ artifacts: (ArtifactRow & { createdAt: number })[] }>('GET', '/artifacts?limit=100')
      ).artifacts
        .sort((a, b) => a.createdAt - b.createdAt)
        .map(({ ref, kind, bytes, label }) => (label ? { ref, kind, bytes, label } : { ref, kind, bytes })),
    async download(ref) {
      const response = await fetch(`${API}/artifacts/${encodeURIComponent(ref)}`);
      if (!response.ok) throw new DoorError(await errorOf(response));
      return response.blob();
    },
  };
}

/**
 * The run this tab used before a reload, if the Worker still has it: its event stream, opened
 * here and kept, with the first event (every run starts with `run.started`). A run the Worker
 * has let go refuses the stream.
 */
async function keptRun() {
  const runId = sessionStorage.getItem(WORKER_RUN_KEY);
  if (!runId) return undefined;
  const stream = connectRun(API, runId)[Symbol.asyncIterator]();
  try {
    const first = await stream.next();
    return first.done ? undefined : { runId, stream, first: first.value };
  } catch {
    return undefined;
  }
}

/** A door answer that is not 2xx, with the ErrorInfo the door sent. */
class DoorError extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.message);
  }
}

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method };
  if (body !== undefined) init.body = JSON.stringify(body);
  if (body !== undefined) init.headers = { 'content-type': 'application/json' };
  const response = await fetch(`${API}${path}`, init);
  if (!response.ok) throw new DoorError(await errorOf(response));
  return (await response.json()) as T;
}

async function errorOf(response: Response): Promise<ErrorInfo> {
  try {
    const info = (await response.json()) as ErrorInfo;
    if (typeof info.kind === 'string' && typeof info.message === 'string') return info;
  } catch {
    // Not the door's JSON: describe the status instead.
  }
  return {
    kind: 'internal',
    message: `The Worker answered ${response.status}.`,
    retryable: response.status >= 500,
  };
}

function asErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof DoorError) return error.info;
  return { kind: 'internal', message: 'The Worker could not be reached.', retryable: true };
}
