import type { Invocation } from './invocation.js';

/**
 * The calls of a run in flight, oldest first: a list through the calls themselves, so a call that
 * starts and ends pays no allocation or hashing for being tracked.
 */
export class InflightCalls {
  private oldest: Invocation | undefined;
  private newest: Invocation | undefined;

  add(invocation: Invocation): void {
    invocation.older = this.newest;
    if (this.newest) this.newest.newer = invocation;
    else this.oldest = invocation;
    this.newest = invocation;
  }

  delete(invocation: Invocation): void {
    const { older, newer } = invocation;
    if (older) older.newer = newer;
    else if (this.oldest === invocation) this.oldest = newer;
    else return; // not in the list (already deleted)
    if (newer) newer.older = older;
    else this.newest = older;
    invocation.older = invocation.newer = undefined;
  }

  /** The calls in flight now, oldest first. */
  list(): Invocation[] {
    const live: Invocation[] = [];
    for (let at = this.oldest; at; at = at.newer) live.push(at);
    return live;
  }
}
