import { describe, expect, it } from 'vitest';
import { createCredential, REDACTED } from './credential.js';

const SECRET = 'sk-live-PLANTED-SECRET-123';

describe('createCredential', () => {
  const github = createCredential({ credential: 'github', value: SECRET, scopes: ['repo'], expiresAt: 5 });

  it('keeps the value readable', () => {
    expect(github.value).toBe(SECRET);
    expect(github.credential).toBe('github');
    expect(github.scopes).toEqual(['repo']);
    expect(github.expiresAt).toBe(5);
  });

  it('redacts the value in JSON, including nested in other objects', () => {
    expect(JSON.parse(JSON.stringify(github))).toEqual({
      credential: 'github',
      value: REDACTED,
      scopes: ['repo'],
      expiresAt: 5,
    });
    expect(JSON.stringify({ context: { github } })).not.toContain(SECRET);
  });

  it('prints as its name in strings', () => {
    expect(String(github)).toBe('[credential github]');
    expect(`token: ${github}`).toBe('token: [credential github]');
    expect(`${github}`).not.toContain(SECRET);
  });

  it('cannot be changed after it is made', () => {
    expect(Object.isFrozen(github)).toBe(true);
    expect(Object.isFrozen(github.scopes)).toBe(true);
  });

  it('leaves out fields that were not given', () => {
    const bare = createCredential({ credential: 'weather', value: SECRET });
    expect(Object.keys(bare).sort()).toEqual(['credential', 'value']);
    expect(JSON.parse(JSON.stringify(bare))).toEqual({ credential: 'weather', value: REDACTED });
  });
});
