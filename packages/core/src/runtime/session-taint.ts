import { CLEAN_TAINT, type Taint, type TaintTracker } from '../policy/taint.js';

/**
 * The key under which a door whose calls belong to a session (the MCP server) hands `callOnce`
 * what its session's calls raised. The runtime keeps a conversation's taint only while a run or
 * call holds it, so a session that outlives its calls remembers their taint itself, for as long
 * as the session object lives: the runtime's record stays bounded, and a session's second call
 * still sees what its first one read. A symbol, so it is no option a caller can name in JSON.
 */
export const sessionTaint: unique symbol = Symbol('toolctx.sessionTaint');

/** A session's memory of its calls' taint, by taint key; see {@link sessionTaint}. */
export type SessionTaint = Map<string, Taint>;

/** What a session door adds to `callOnce`'s request. */
export interface RemembersTaint {
  [sessionTaint]?: SessionTaint;
}

/** Raises the frame's conversation with what its session remembers. */
export function recallTaint(memory: SessionTaint, taint: TaintTracker, key: string): void {
  const remembered = memory.get(key);
  if (remembered) taint.raise(key, remembered);
}

/** Remembers what the frame's conversation holds, before the frame lets it go. */
export function rememberTaint(memory: SessionTaint, taint: TaintTracker, key: string): void {
  const now = taint.get(key);
  if (now !== CLEAN_TAINT) memory.set(key, now);
}
