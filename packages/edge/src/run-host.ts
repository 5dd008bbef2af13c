import { DurableObject } from 'cloudflare:workers';
import type { Env } from './env.js';

/**
 * The Durable Object that holds one run's live state.
 *
 * @example
 * ```ts
 * const stub = env.RUNS.get(env.RUNS.idFromName(runId));
 * await stub.ping(); // 'pong'
 * ```
 */
export class RunHost extends DurableObject<Env> {
  /** Answers `'pong'`; lets a caller check the object is reachable. */
  async ping(): Promise<string> {
    return 'pong';
  }
}
