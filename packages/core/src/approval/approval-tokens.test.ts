import { describe, expect, it } from 'vitest';
import { ToolctxError } from '../errors.js';
import type { ApprovalRequest } from './approval.js';
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

  it('are dropped with their run', () => {
    const tokens = createApprovalTokens();
    const token = tokens.issue(binding);
    tokens.forgetRun('run_1');
    const check = tokens.consume(token, binding);
    expect(!check.ok && check.error.details?.reason).toBe('unknown-token');
  });
});

describe('pending approvals', () => {
  const request: Omit<ApprovalRequest, 'approvalId'> = { ...binding, args: { to: 'a@example.com' } };

  it('are filed, looked up and decided once', () => {
    const tokens = createApprovalTokens();
    const id = tokens.pend(request);
    expect(id).toMatch(/^apr_/);
    expect(tokens.pending(id)).toEqual({ ...request, approvalId: id });
    const resolution = tokens.decide(id, { approved: true });
    expect(resolution).toEqual({
      ok: true,
      request: { ...request, approvalId: id },
      decision: { approved: true },
    });
    expect(tokens.pending(id)).toBeUndefined();
    const twice = tokens.decide(id, { approved: false });
    expect(!twice.ok && twice.error).toMatchObject({
      kind: 'approval-invalid',
      details: { reason: 'already-decided' },
    });
  });

  it('keep a given approval id and refuse filing it twice', () => {
    const tokens = createApprovalTokens();
    expect(tokens.pend({ ...request, approvalId: 'apr_given' })).toBe('apr_given');
    expect(() => tokens.pend({ ...request, approvalId: 'apr_given' })).toThrow(ToolctxError);
  });

  it('refuse unknown ids, another run and malformed decisions, staying pending', () => {
    const tokens = createApprovalTokens();
    const unknown = tokens.decide('apr_nope', { approved: true });
    expect(!unknown.ok && unknown.error.details?.reason).toBe('unknown-approval');
    expect(!unknown.ok && unknown.error.message).toContain('details.approvalId');
    const id = tokens.pend(request);
    const elsewhere = tokens.decide(id, { approved: true }, { runId: 'run_2' });
    expect(!elsewhere.ok && elsewhere.error.details?.reason).toBe('other-run');
    const malformed = tokens.decide(id, { approved: 'yes' } as never);
    expect(!malformed.ok && malformed.error.details?.reason).toBe('invalid-decision');
    expect(tokens.pending(id)).toBeDefined();
    expect(tokens.decide(id, { approved: false, reason: 'no' }, { runId: 'run_1' }).ok).toBe(true);
  });

  it('are dropped with their run', () => {
    const tokens = createApprovalTokens();
    const id = tokens.pend(request);
    tokens.forgetRun('run_1');
    expect(tokens.pending(id)).toBeUndefined();
  });
});
