// Types of stalled-readers.mjs for the TypeScript tests that use it.

/** A reader of a run's events that stopped reading after its first event. */
export interface StalledReader {
  /** Reads on until the server ends the response or `ms` pass: whether it ended, and the SSE text. */
  resume(ms: number): Promise<{ ended: boolean; body: string }>;
  destroy(): void;
}

export function startRun(base: string): Promise<string>;
export function stalledReader(base: string, runId: string): Promise<StalledReader>;
export function runtimeRssAfterGcKib(inspectorPort: number, base: string, pgid: number): number;
export function chatter(
  base: string,
  runId: string,
  events: number,
  bytes?: number,
): Promise<{ ok: boolean; value?: unknown }>;
