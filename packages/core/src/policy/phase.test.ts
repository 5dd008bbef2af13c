import { describe, expect, it } from 'vitest';
import { allowedInPhase, DEFAULT_PHASE, type Effect, phaseRefusal } from './phase.js';

describe('allowedInPhase', () => {
  it('allows only read tools while planning', () => {
    expect(allowedInPhase('read', 'plan')).toBe(true);
    expect(allowedInPhase('write', 'plan')).toBe(false);
    expect(allowedInPhase('send', 'plan')).toBe(false);
  });

  it('allows every effect when acting', () => {
    for (const effect of ['read', 'write', 'send'] satisfies Effect[])
      expect(allowedInPhase(effect, 'act')).toBe(true);
  });

  it('defaults to a read tool in the act phase', () => {
    expect(DEFAULT_PHASE).toBe('act');
    expect(allowedInPhase()).toBe(true);
    expect(allowedInPhase('send')).toBe(true);
    expect(allowedInPhase(undefined, 'plan')).toBe(true);
  });
});

describe('phaseRefusal', () => {
  it('is a policy refusal naming the tool, its effect, the phase and the way out', () => {
    const info = phaseRefusal('delete_file', 'write', 'plan');
    expect(info).toMatchObject({
      kind: 'policy-refused',
      retryable: false,
      details: { policy: 'phase', toolName: 'delete_file', effect: 'write', phase: 'plan' },
    });
    expect(info.message).toContain('`delete_file`');
    expect(info.message).toContain("phase: 'act'");
    expect(JSON.parse(JSON.stringify(info))).toEqual(info);
  });
});
