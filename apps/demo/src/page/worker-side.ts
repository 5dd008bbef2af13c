import { connectRun } from '@toolctx/browser/remote';
import type { ErrorInfo, ToolEvent, ToolResult } from '@toolctx/core';
import type { ArtifactRow, CallHandle, Side } from './side.js';

const API = '/api';

/**
 * The same tools on the Cloudflare Worker: calls through the HTTP door, events through its SSE
 * stream (`connectRun`), artifacts in R2 and KV. The server decides who we are; the page sends
 * no identity.
 */
export async function createWorkerSide(): Promise<Side> {
  const { runId } = await request<{ runId: string }>('POST', '/runs', {});
  const listeners = new Set<(event: ToolEvent) => void>();
  // The run's artifacts, from its own artifact.put events (the door has no listing route).
  const artifacts = new Map<string, ArtifactRow>();
  void (async () => {
    for await (const event of connectRun(API, runId)) {
      if (event.type === 'artifact.put') {
        const { ref, kind, bytes } = event.data as ArtifactRow;
        const label = await labelOf(ref);
        artifacts.set(ref, label ? { ref, kind, bytes, label } : { ref, kind, bytes });
      }
      for (const listener of listeners) listener(event);
    }
  })().catch((error: unknown) => console.warn("The Worker run's event stream stopped:", error));

  return {
    runId,
    events: {
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    call(tool, args): CallHandle {
      const callId = `call_${crypto.randomUUID()}`;
      const result = request<ToolResult>('POST', `/runs/${runId}/calls`, {
        tool,
        args,
        toolCallId: callId,
      }).catch((error: unknown): ToolResult => ({ ok: false, error: asErrorInfo(error) }));
      return { callId, result };
    },
    async cancel(callId) {
      await request('POST', `/runs/${runId}/calls/${callId}/cancel`);
    },
    decide: (approvalId, decision) =>
      request<ToolResult>('POST', `/approvals/${encodeURIComponent(approvalId)}`, {
        runId,
        ...decision,
      }).catch((error: unknown): ToolResult => ({ ok: false, error: asErrorInfo(error) })),
    listArtifacts: async () => [...artifacts.values()],
    async download(ref) {
      const response = await fetch(`${API}/artifacts/${encodeURIComponent(ref)}`);
      if (!response.ok) throw new DoorError(await errorOf(response));
      return response.blob();
    },
  };
}

/** A door answer that is not 2xx, with the ErrorInfo the door sent. */
class DoorError extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.message);
  }
}

/** An artifact's label, from the file name the door gives it (events carry no labels). */
async function labelOf(ref: string): Promise<string | undefined> {
  const response = await fetch(`${API}/artifacts/${encodeURIComponent(ref)}`, { method: 'HEAD' }).catch(
    () => undefined,
  );
  if (!response?.ok) return undefined;
  const name = /filename\*=UTF-8''([^;]+)/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  return name ? decodeURIComponent(name) : undefined;
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
