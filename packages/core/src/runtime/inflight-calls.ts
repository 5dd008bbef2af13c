import type { ToolResult } from '../context/types.js';
import type { Attempt } from './attempt.js';
import { Invocation } from './invocation.js';

/**
 * The calls of a run in flight, oldest first: a list through the calls themselves, so a call that
 * starts and ends pays no allocation or hashing for being tracked.
 */
export class InflightCalls {
  private oldest: Invocation | undefined;
  private newest: Invocation | undefined;

  /** A new call in flight: the run's end, and its parent's, cancel it until it has ended. */
  track(parent: Attempt | undefined): Invocation {
    const invocation = new Invocation();
    this.add(invocation);
    if (parent) {
      parent.children ??= new Set();
      parent.children.add(invocation);
    }
    return invocation;
  }

  /** Releases the call once `done` settles. */
  releaseWhenDone(
    invocation: Invocation,
    parent: Attempt | undefined,
    done: Promise<ToolResult>,
  ): Promise<ToolResult> {
    const released = done.finally(() => this.release(invocation, parent));
    invocation.done = released;
    return released;
  }

  /** The call has ended: no longer in flight, nor listening to its caller. */
  release(invocation: Invocation, parent: Attempt | undefined): void {
    invocation.unlisten?.();
    this.delete(invocation);
    parent?.children?.delete(invocation);
  }

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

  /** The call in flight with this id (or resumed by the approval of this id). */
  find(id: string): Invocation | undefined {
    for (let at = this.oldest; at; at = at.newer) if (at.callId === id || at.approvalId === id) return at;
    return undefined;
  }

  /** The calls in flight now, oldest first. */
  list(): Invocation[] {
    const live: Invocation[] = [];
    for (let at = this.oldest; at; at = at.newer) live.push(at);
    return live;
  }
}
