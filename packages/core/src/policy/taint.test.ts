import { describe, expect, it } from 'vitest';
import {
  CLEAN_TAINT,
  callTaint,
  createTaintTracker,
  FULL_TAINT,
  mergeTaint,
  type TaintReads,
} from './taint.js';

describe('mergeTaint', () => {
  it('ors the legs and treats unknown as fully tainted', () => {
    expect(mergeTaint()).toEqual(CLEAN_TAINT);
    expect(mergeTaint({ private: true }, undefined, {})).toEqual({ private: true, untrusted: false });
    expect(mergeTaint({ private: true }, { untrusted: true })).toEqual(FULL_TAINT);
    expect(mergeTaint({ private: false }, 'unknown')).toEqual(FULL_TAINT);
  });

  it('fails closed on a malformed taint value', () => {
    expect(mergeTaint(null as never)).toEqual(FULL_TAINT);
    expect(mergeTaint('maybe' as never)).toEqual(FULL_TAINT);
  });
});

describe('callTaint', () => {
  it('turns a reads declaration into legs', () => {
    expect(callTaint(undefined)).toEqual(CLEAN_TAINT);
    expect(callTaint('private')).toEqual({ private: true, untrusted: false });
    expect(callTaint(['untrusted'])).toEqual({ private: false, untrusted: true });
    expect(callTaint(['private', 'untrusted'])).toEqual(FULL_TAINT);
  });

  it('adds what the result reports, unknown arming both legs', () => {
    expect(callTaint('private', { untrusted: true })).toEqual(FULL_TAINT);
    expect(callTaint(undefined, 'unknown')).toEqual(FULL_TAINT);
    expect(callTaint(undefined, { private: false })).toEqual(CLEAN_TAINT);
  });

  it('counts an unrecognised reads value as unknown', () => {
    expect(callTaint('secret' as TaintReads)).toEqual(FULL_TAINT);
    expect(callTaint(['private', 'web'] as unknown as TaintReads)).toEqual(FULL_TAINT);
  });
});

describe('createTaintTracker', () => {
  it('starts every conversation clean and keeps conversations apart', () => {
    const tracker = createTaintTracker();
    expect(tracker.get('a')).toEqual(CLEAN_TAINT);
    tracker.hold('a');
    tracker.raise('a', { private: true });
    expect(tracker.get('a')).toEqual({ private: true, untrusted: false });
    expect(tracker.get('b')).toEqual(CLEAN_TAINT);
  });

  it('only ever raises taint', () => {
    const tracker = createTaintTracker();
    tracker.hold('a');
    tracker.raise('a', { private: true });
    expect(tracker.raise('a', { private: false, untrusted: true })).toEqual(FULL_TAINT);
    tracker.raise('a', CLEAN_TAINT);
    expect(tracker.get('a')).toEqual(FULL_TAINT);
  });

  it('raises both legs for unknown taint, and forgets a conversation with its last hold', () => {
    const tracker = createTaintTracker();
    tracker.hold('a');
    tracker.hold('a');
    expect(tracker.raise('a', 'unknown')).toEqual(FULL_TAINT);
    tracker.release('a');
    expect(tracker.get('a')).toEqual(FULL_TAINT);
    expect(tracker.size).toBe(1);
    tracker.release('a');
    expect(tracker.get('a')).toEqual(CLEAN_TAINT);
    expect(tracker.size).toBe(0);
  });

  it('keeps nothing for a key nobody holds, and a release too many takes nobody else’s hold', () => {
    const tracker = createTaintTracker();
    expect(tracker.raise('a', { private: true })).toEqual({ private: true, untrusted: false });
    expect(tracker.get('a')).toEqual(CLEAN_TAINT);
    expect(tracker.size).toBe(0);
    tracker.release('a');
    tracker.hold('b');
    tracker.raise('b', { untrusted: true });
    tracker.release('a');
    expect(tracker.get('b')).toEqual({ private: false, untrusted: true });
  });

  it('hands out taint that callers cannot lower by mutation', () => {
    const tracker = createTaintTracker();
    tracker.hold('a');
    const taint = tracker.raise('a', { private: true });
    expect(() => {
      (taint as { private: boolean }).private = false;
    }).toThrow(TypeError);
    expect(tracker.get('a').private).toBe(true);
  });
});
