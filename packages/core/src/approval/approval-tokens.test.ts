import { describe, expect, it } from 'vitest';
import { type ApprovalBinding, createApprovalTokens } from './approval-tokens.js';

const binding: ApprovalBinding = { runId: 'run_1', callId: 'call_1', toolName: 'send_email', argsHash: 'h1' };

describe('approval tokens', () => {
  it('are random and let the bound call through once', () => {
    const tokens = createApprovalTokens();
    const token = tokens.issue(binding);
    expect(token).toMatch(/^apt_[0-9A-Za-z]{22}$/);
    expect(tokens.issue(binding)).not.toBe(token);
    expect(tokens.consume(token, { ...binding })).toEqual({ ok: true });
  });

  it.each([
    ['other-run', { runId: 'run_2' }],
    ['other-run', { runId: undefined }],
    ['other-call', { callId: 'call_2' }],
    ['other-tool', { toolName: 'delete_file' }],
    ['args-changed', { argsHash: 'h2' }],
  ] as Array<[string, Partial<ApprovalBinding>]>)('refuse %s', (reason, change) => {
    const tokens = createApprovalTokens();
    const token = tokens.issue(binding);
    const check = tokens.consume(token, { ...binding, ...change });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.error).toMatchObject({ kind: 'approval-invalid', retryable: false, details: { reason } });
    expect(check.error.message).toContain('Ask for approval again');
    // A refused attempt uses the token up: the right call cannot follow with it.
    const again = tokens.consume(token, binding);
    expect(!again.ok && again.error.details?.reason).toBe('token-used');
  });

  it('refuse reuse, unknown tokens and expired ones', () => {
    let clock = 1_000;
    const tokens = createApprovalTokens({ ttlMs: 100, now: () => clock });
    const token = tokens.issue(binding);
    expect(tokens.consume(token, binding).ok).toBe(true);
    const reuse = tokens.consume(token, binding);
    expect(!reuse.ok && reuse.error.details?.reason).toBe('token-used');
    const unknown = tokens.consume('apt_forged', binding);
    expect(!unknown.ok && unknown.error.details?.reason).toBe('unknown-token');
    const late = tokens.issue(binding);
    clock += 100;
    const expired = tokens.consume(late, binding);
    expect(!expired.ok && expired.error.details?.reason).toBe('token-expired');
  });

  it('bind a run-less call to no run', () => {
    const tokens = createApprovalTokens();
    const mcp = { callId: 'c', toolName: 't', argsHash: 'h' };
    expect(tokens.consume(tokens.issue(mcp), mcp).ok).toBe(true);
    const check = tokens.consume(tokens.issue(mcp), { ...mcp, runId: 'run_1' });
    expect(!check.ok && check.error.details?.reason).toBe('other-run');
  });
});
