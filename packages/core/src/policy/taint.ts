/**
 * What a conversation has been exposed to, as two legs: `private` (it has read the user's private
 * data) and `untrusted` (it has seen content an outsider could have written, such as a web page or
 * an email). Taint only rises: once a leg is armed it stays armed for the conversation.
 */
export interface Taint {
  readonly private: boolean;
  readonly untrusted: boolean;
}

/** One leg of {@link Taint}. */
export type TaintLeg = 'private' | 'untrusted';

/** What a tool declares it reads (`reads` on the tool): the legs its results arm. */
export type TaintReads = TaintLeg | readonly TaintLeg[];

/**
 * The taint a result reports about itself (`taint` on a result). `'unknown'` means it cannot be
 * told, for example a remote tool that does not say: that counts as fully tainted (fail closed).
 */
export type ResultTaint = Partial<Taint> | 'unknown';

/**
 * A conversation that has seen nothing.
 */
export const CLEAN_TAINT: Taint = Object.freeze({ private: false, untrusted: false });

/**
 * Both legs armed: what unknown taint counts as.
 */
export const FULL_TAINT: Taint = Object.freeze({ private: true, untrusted: true });

/**
 * Combines taints leg by leg (an armed leg stays armed). `'unknown'` arms both legs; `undefined`
 * adds nothing.
 */
export function mergeTaint(...taints: Array<ResultTaint | undefined>): Taint {
  let isPrivate = false;
  let untrusted = false;
  for (const taint of taints) {
    if (taint === undefined) continue;
    if (taint === 'unknown' || typeof taint !== 'object' || taint === null) return FULL_TAINT;
    isPrivate ||= taint.private === true;
    untrusted ||= taint.untrusted === true;
  }
  return freezeTaint(isPrivate, untrusted);
}

/**
 * The taint one finished call adds to its conversation: the tool's `reads` declaration merged
 * with what its result reports. A `reads` value that is not a known leg counts as unknown.
 */
export function callTaint(reads: TaintReads | undefined, result?: ResultTaint): Taint {
  const legs: readonly unknown[] = reads === undefined ? [] : Array.isArray(reads) ? reads : [reads];
  const declared: ResultTaint = legs.every((leg) => leg === 'private' || leg === 'untrusted')
    ? { private: legs.includes('private'), untrusted: legs.includes('untrusted') }
    : 'unknown';
  return mergeTaint(declared, result);
}

/**
 * The taint of each conversation, by a key the runtime chooses (for example the conversation's
 * scope key), kept while something holds the key: a run or a door's one-call frame holds it from
 * its start (or its first use of taint) to its end. See {@link createTaintTracker}.
 */
export interface TaintTracker {
  /** The conversation's taint; a conversation that has seen nothing, or that nothing holds, is clean. */
  get(key: string): Taint;
  /**
   * Arms the given legs (`'unknown'` arms both) and returns the new taint. Never lowers it. Kept
   * only while the key is held: a key nothing holds has no live run left to read it.
   */
  raise(key: string, taint: ResultTaint): Taint;
  /** Holds `key` until a matching {@link release}, and returns it. */
  hold(key: string): string;
  /** Lets go of one hold; the conversation's record goes with its last. */
  release(key: string): void;
  /** How many conversations are held: for tests that the record stays bounded. */
  readonly size: number;
}

interface Held {
  taint: Taint;
  holders: number;
}

/**
 * Holds taint per conversation. Raise it after every call with {@link callTaint}, read it before
 * a `send` tool runs with {@link trifectaDecision}. A record lives exactly as long as its holds, so
 * a long-lived host keeps one per live conversation, never one per conversation it ever served.
 */
export function createTaintTracker(): TaintTracker {
  const byKey = new Map<string, Held>();
  return {
    get: (key) => byKey.get(key)?.taint ?? CLEAN_TAINT,
    raise(key, taint) {
      const held = byKey.get(key);
      const next = mergeTaint(held?.taint, taint);
      if (held) held.taint = next;
      return next;
    },
    hold(key) {
      const held = byKey.get(key);
      if (held) held.holders++;
      else byKey.set(key, { taint: CLEAN_TAINT, holders: 1 });
      return key;
    },
    release(key) {
      const held = byKey.get(key);
      if (held && --held.holders === 0) byKey.delete(key);
    },
    get size() {
      return byKey.size;
    },
  };
}

function freezeTaint(isPrivate: boolean, untrusted: boolean): Taint {
  if (isPrivate && untrusted) return FULL_TAINT;
  if (!isPrivate && !untrusted) return CLEAN_TAINT;
  return Object.freeze({ private: isPrivate, untrusted });
}
