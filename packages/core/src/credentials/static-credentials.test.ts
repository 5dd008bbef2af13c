import { describe, expect, it } from 'vitest';
import { staticCredentials } from './static-credentials.js';

const SECRET = 'ghp_PLANTED-SECRET';

describe('staticCredentials', () => {
  const provider = staticCredentials({
    github: { value: SECRET, scopes: ['repo', 'read:user'] },
    weather: 'weather-PLANTED-SECRET',
  });

  it('issues a configured credential, whoever asks', async () => {
    const answer = await provider.resolve({ credential: 'weather' }, { tenant: 't', principal: 'p' });
    expect(answer.kind).toBe('issued');
    if (answer.kind === 'issued') expect(answer.credential.value).toBe('weather-PLANTED-SECRET');
  });

  it('issues a credential whose scopes cover the request', async () => {
    const answer = await provider.resolve({ credential: 'github', scopes: ['repo'] }, {});
    expect(answer.kind === 'issued' && answer.credential.scopes).toEqual(['repo', 'read:user']);
  });

  it('fails for a missing name, saying how to add it', async () => {
    const answer = await provider.resolve({ credential: 'slack' }, {});
    expect(answer.kind).toBe('failed');
    if (answer.kind !== 'failed') return;
    expect(answer.reason).toContain('`slack`');
    expect(answer.reason).toContain('staticCredentials({ "slack"');
    expect(answer.reason).toContain('`github`');
    expect(answer.reason).not.toContain(SECRET);
  });

  it('does not treat inherited object keys as configured', async () => {
    expect((await provider.resolve({ credential: 'toString' }, {})).kind).toBe('failed');
    expect((await provider.resolve({ credential: '__proto__' }, {})).kind).toBe('failed');
  });

  it('fails when a requested scope is not granted, naming it', async () => {
    const answer = await provider.resolve({ credential: 'github', scopes: ['repo', 'admin:org'] }, {});
    expect(answer.kind).toBe('failed');
    if (answer.kind !== 'failed') return;
    expect(answer.reason).toContain('`admin:org`');
    expect(answer.reason).not.toContain(SECRET);
  });

  it('does not restrict scopes for an entry that lists none', async () => {
    const answer = await provider.resolve({ credential: 'weather', scopes: ['anything'] }, {});
    expect(answer.kind).toBe('issued');
  });
});
