import { describe, expect, it } from 'vitest';
import { createMemoryApprovalPort } from './memory-approval-port.js';
import { requiresApproval } from './requires-approval.js';

describe('requiresApproval', () => {
  it('reads booleans and absence', async () => {
    expect(await requiresApproval(undefined, {})).toBe(false);
    expect(await requiresApproval(false, {})).toBe(false);
    expect(await requiresApproval(true, {})).toBe(true);
  });

  it('asks a predicate, sync or async, with the arguments', async () => {
    const big = (args: { amount: number }) => args.amount > 100;
    expect(await requiresApproval(big, { amount: 500 })).toBe(true);
    expect(await requiresApproval(big, { amount: 5 })).toBe(false);
    expect(
      await requiresApproval(async (args: { amount: number }) => args.amount > 100, { amount: 500 }),
    ).toBe(true);
  });

  it('fails closed when the predicate throws or answers nonsense', async () => {
    const broken = () => {
      throw new Error('bug');
    };
    expect(await requiresApproval(broken, {})).toBe(true);
    expect(await requiresApproval((() => undefined) as never, {})).toBe(true);
  });
});

describe('createMemoryApprovalPort', () => {
  const request = { approvalId: 'apr_1', callId: 'c', toolName: 'pay', argsHash: 'h', args: { amount: 1 } };

  it('leaves every request pending by default and records it', async () => {
    const port = createMemoryApprovalPort();
    expect(await port.request(request)).toBe('pending');
    expect(port.requests).toEqual([request]);
  });

  it('answers with decide', async () => {
    const port = createMemoryApprovalPort({
      decide: (req) => ({ approved: req.toolName !== 'pay', reason: 'no paying' }),
    });
    expect(await port.request(request)).toEqual({ approved: false, reason: 'no paying' });
  });
});
