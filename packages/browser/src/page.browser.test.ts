import { describe, expect, it } from 'vitest';

describe('a real Chromium page', () => {
  it('has a DOM and a user agent that says Chrome', () => {
    const element = document.createElement('p');
    element.textContent = '<b>text</b>';
    document.body.append(element);
    expect(element.innerHTML).toBe('&lt;b&gt;text&lt;/b&gt;');
    expect(navigator.userAgent).toMatch(/Chrome\//);
    element.remove();
  });
});
