import { describe, expect, it } from 'vitest';
import { encodeSse, encodeSseBytes, hasLineBreak } from './encode-sse.js';

describe('encoding server-sent events', () => {
  it('writes id, event, retry and data in that order, one field a line, and ends with a blank line', () => {
    expect(encodeSse({ id: '7', event: 'tool.progress', retry: 1500, data: '{"n":1}' })).toBe(
      'id: 7\nevent: tool.progress\nretry: 1500\ndata: {"n":1}\n\n',
    );
  });

  it('splits data at every line break, CRLF, CR and LF, into one data line each', () => {
    expect(encodeSse({ data: 'one\r\ntwo\rthree\nfour\n' })).toBe(
      'data: one\ndata: two\ndata: three\ndata: four\ndata: \n\n',
    );
    expect(encodeSse({ data: '' })).toBe('data: \n\n');
  });

  it('writes a message with an id or a retry alone, which moves the reader without an event', () => {
    expect(encodeSse({ id: '3' })).toBe('id: 3\n\n');
    expect(encodeSse({ retry: 0 })).toBe('retry: 0\n\n');
  });

  it('refuses a line break in an id or event name, which would forge fields', () => {
    expect(() => encodeSse({ id: '1\ndata: x', data: '' })).toThrow(/line break/);
    expect(() => encodeSse({ event: 'a\rb', data: '' })).toThrow(/line break/);
  });

  it('refuses a NUL in an id, which a reader would ignore', () => {
    expect(() => encodeSse({ id: 'a\0b', data: '' })).toThrow(/NUL/);
  });

  it('refuses a retry that is not a whole, non-negative number of milliseconds', () => {
    for (const retry of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => encodeSse({ retry })).toThrow(/whole number of milliseconds/);
  });

  it('gives the same message as UTF-8 bytes', () => {
    const message = { event: 'result', data: '{"k":"é"}' };
    expect(new TextDecoder().decode(encodeSseBytes(message))).toBe(encodeSse(message));
  });

  it('tells whether a value holds a line break of any kind', () => {
    expect(['a\nb', 'a\rb', 'a\r\nb'].map(hasLineBreak)).toEqual([true, true, true]);
    expect(hasLineBreak('tool.progress')).toBe(false);
  });
});
