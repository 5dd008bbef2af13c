import { describe, expect, it } from 'vitest';
import {
  type ApprovalPort,
  approvalPending,
  argsHash,
  askApproval,
  createApprovalRequest,
} from './approval.js';
import { approvalDenial } from './approval-decision.js';

describe('argsHash', () => {
  it('ignores key order and sees every change', async () => {
    const a = await argsHash({ to: 'x', body: { text: 'hi', cc: [1, 2] } });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await argsHash({ body: { cc: [1, 2], text: 'hi' }, to: 'x' })).toBe(a);
    expect(await argsHash({ to: 'x', body: { text: 'hi', cc: [2, 1] } })).not.toBe(a);
    expect(await argsHash({ to: 'y', body: { text: 'hi', cc: [1, 2] } })).not.toBe(a);
  });

  it('tells undefined from null', async () => {
    expect(await argsHash(undefined)).not.toBe(await argsHash(null));
  });
});

describe('createApprovalRequest', () => {
  it('stamps a fresh id and the argument hash', async () => {
    const args = { amount: 5 };
    const request = await createApprovalRequest({ runId: 'r', callId: 'c', toolName: 'pay', args });
    expect(request).toEqual({
      approvalId: expect.stringMatching(/^apr_/),
      runId: 'r',
      callId: 'c',
      toolName: 'pay',
      argsHash: await argsHash(args),
      args,
    });
    const other = await createApprovalRequest({ callId: 'c', toolName: 'pay', args });
    expect(other.approvalId).not.toBe(request.approvalId);
    expect('runId' in other).toBe(false);
  });
});

describe('askApproval', () => {
  const request = { approvalId: 'apr_1', callId: 'c', toolName: 't', argsHash: 'h', args: {} };

  it('passes decisions and pending through', async () => {
    expect(await askApproval({ request: async () => ({ approved: true }) }, request)).toEqual({
      approved: true,
    });
    expect(await askApproval({ request: async () => 'pending' }, request)).toBe('pending');
  });

  it('counts a failing or confused port as a denial without leaking its message', async () => {
    const throwing: ApprovalPort = {
      request: async () => {
        throw new TypeError('secret-detail');
      },
    };
    const denied = await askApproval(throwing, request);
    expect(denied).toEqual({ approved: false, reason: 'The approval port failed with TypeError.' });
    expect(await askApproval({ request: async () => 'yes' as never }, request)).toMatchObject({
      approved: false,
    });
  });
});

describe('approval ErrorInfos', () => {
  it('pending names the approval id and leaves the arguments out', () => {
    const info = approvalPending({
      approvalId: 'apr_1',
      runId: 'r',
      callId: 'c',
      toolName: 'pay',
      argsHash: 'h',
      args: { card: '4111-PLANTED' },
    });
    expect(info).toMatchObject({
      kind: 'approval-pending',
      details: { approvalId: 'apr_1', runId: 'r', callId: 'c', toolName: 'pay' },
    });
    expect(info.message).toContain('run.resume');
    expect(JSON.stringify(info)).not.toContain('PLANTED');
  });

  it('denial carries the reason', () => {
    const info = approvalDenial('pay', { approved: false, reason: 'Too much.' });
    expect(info).toMatchObject({
      kind: 'approval-denied',
      details: { toolName: 'pay', reason: 'Too much.' },
    });
    expect(info.message).toContain('Too much.');
    expect(approvalDenial('pay', { approved: false }).details).toEqual({ toolName: 'pay' });
  });

  it('a reason without a full stop still reads as two sentences, and the reason in details is as given', () => {
    const info = approvalDenial('pay', { approved: false, reason: 'not today' });
    expect(info.message).toBe(
      '`pay` was not approved: not today. Do not call it again unchanged; ask the user how to proceed.',
    );
    expect(info.details).toEqual({ toolName: 'pay', reason: 'not today' });
  });
});
