import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';
import { approvalMessage } from './approval-message.js';

const send = defineTool({
  name: 'send_email',
  description: 'Sends an email.',
  inputSchema: z.object({}).passthrough(),
  effect: 'send',
  execute: () => 'sent',
});

describe('approvalMessage', () => {
  it('names the tool, says what it can affect, and lists the arguments one a line', () => {
    expect(approvalMessage(send, { to: 'ana@example.com', cc: ['a', 'b'], meta: { x: 1, y: 2 } })).toBe(
      [
        'Allow "send_email" to run?',
        'Sends an email.',
        'It can send data out of this app.',
        '',
        'With:',
        '- to: ana@example.com',
        '- cc: a, b',
        '- meta: (2 fields)',
      ].join('\n'),
    );
  });

  it('keeps a value that carries line breaks or direction overrides on its own line', () => {
    const message = approvalMessage(send, { to: 'x@example.com\n- bcc: nobody\u202e' });
    expect(message.split('\n').filter((line) => line.startsWith('- '))).toEqual([
      '- to: x@example.com - bcc: nobody',
    ]);
  });

  it('cuts long values and long argument lists short, saying how much was left out', () => {
    const args = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, 'x'.repeat(130)]));
    const lines = approvalMessage(send, args).split('\n');
    expect(lines).toContain(`- k0: ${'x'.repeat(120)}… (+10 more)`);
    expect(lines.at(-1)).toBe('- … and 2 more');
  });
});
