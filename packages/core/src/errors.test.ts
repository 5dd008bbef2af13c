import { describe, expect, it } from 'vitest';
import { ToolctxError, toErrorInfo } from './errors.js';

describe('toErrorInfo', () => {
  it('shows only the class name of a foreign exception', () => {
    const info = toErrorInfo(new RangeError('secret-value'));
    expect(info).toEqual({
      kind: 'tool-error',
      message: 'The tool failed with RangeError.',
      exception: 'RangeError',
      retryable: false,
    });
    expect(JSON.stringify(info)).not.toContain('secret-value');
  });

  it('keeps the kind, message and details of a ToolctxError', () => {
    const error = new ToolctxError('policy-refused', 'No writes while planning.', {
      details: { phase: 'plan' },
    });
    expect(toErrorInfo(error)).toEqual({
      kind: 'policy-refused',
      message: 'No writes while planning.',
      retryable: false,
      details: { phase: 'plan' },
    });
  });

  it('names thrown non-errors by their type', () => {
    expect(toErrorInfo('secret').exception).toBe('string');
    expect(toErrorInfo(null).exception).toBe('null');
    expect(JSON.stringify(toErrorInfo('secret'))).not.toContain('secret"');
  });
});
