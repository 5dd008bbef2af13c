import { describe, expect, it } from 'vitest';
import type { Effect } from './phase.js';
import { CLEAN_TAINT, FULL_TAINT } from './taint.js';
import { DEFAULT_TRIFECTA_MODE, trifectaDecision, trifectaRefusal } from './trifecta.js';

describe('trifectaDecision', () => {
  it('blocks a send tool while both legs are armed, by default', () => {
    expect(DEFAULT_TRIFECTA_MODE).toBe('block');
    expect(trifectaDecision(FULL_TAINT, 'send')).toBe('block');
  });

  it('follows the mode for a send tool under full taint', () => {
    expect(trifectaDecision(FULL_TAINT, 'send', 'block')).toBe('block');
    expect(trifectaDecision(FULL_TAINT, 'send', 'approve')).toBe('approve');
    expect(trifectaDecision(FULL_TAINT, 'send', 'allow')).toBe('allow');
  });

  it('fails closed on an unrecognised mode', () => {
    expect(trifectaDecision(FULL_TAINT, 'send', 'off' as never)).toBe('block');
  });

  it('leaves every other case alone', () => {
    for (const effect of ['read', 'write'] satisfies Effect[])
      expect(trifectaDecision(FULL_TAINT, effect)).toBe('allow');
    expect(trifectaDecision(FULL_TAINT)).toBe('allow');
    expect(trifectaDecision(CLEAN_TAINT, 'send')).toBe('allow');
    expect(trifectaDecision({ private: true, untrusted: false }, 'send')).toBe('allow');
    expect(trifectaDecision({ private: false, untrusted: true }, 'send')).toBe('allow');
  });
});

describe('trifectaRefusal', () => {
  it('names both legs and how to change security.trifecta', () => {
    const info = trifectaRefusal('send_email');
    expect(info.kind).toBe('policy-refused');
    expect(info.details).toMatchObject({
      policy: 'trifecta',
      legs: ['private', 'untrusted'],
      toolName: 'send_email',
    });
    expect(info.message).toContain('private leg');
    expect(info.message).toContain('untrusted leg');
    expect(info.message).toContain("security.trifecta: 'approve'");
  });
});
