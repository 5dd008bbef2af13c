import { describe, expect, it } from 'vitest';
import { type ErrorInfo, ToolctxError, toErrorInfo } from '../errors.js';
import { REDACTED } from './credential.js';
import type { CredentialAnswer, CredentialProvider } from './credential-provider.js';
import { credentialsAccess } from './credentials-access.js';
import { staticCredentials } from './static-credentials.js';

const SECRET = 'sk-live-PLANTED-SECRET-9f8e';
const AUTH_URL = 'https://auth.example.com/authorize?client_id=abc&state=PLANTED-STATE-77';

const answering = (answer: CredentialAnswer | (() => never)): CredentialProvider => ({
  resolve: async () => (typeof answer === 'function' ? answer() : answer),
});

async function thrown(promise: Promise<unknown>): Promise<ToolctxError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolctxError);
  return error as ToolctxError;
}

/** Everything about an error that could reach a model, a client, a log or an event. */
function everyRendering(error: ToolctxError): string {
  const info: ErrorInfo = toErrorInfo(error);
  return [
    error.message,
    String(error),
    error.stack ?? '',
    JSON.stringify(info),
    JSON.stringify(error.info),
  ].join('\n');
}

function expectNoSecrets(text: string): void {
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain(AUTH_URL);
  expect(text).not.toContain('PLANTED-STATE-77');
  expect(text).not.toContain('auth.example.com');
}

describe('credentialsAccess', () => {
  it('returns an issued credential, wrapped so its value does not print', async () => {
    const access = credentialsAccess(staticCredentials({ github: SECRET }), { tenant: 'acme' });
    const github = await access.get({ credential: 'github' });
    expect(github.value).toBe(SECRET);
    expect(JSON.stringify(github)).toContain(REDACTED);
    expectNoSecrets(`${JSON.stringify(github)} ${github}`);
  });

  it('wraps a plain credential a custom provider returns', async () => {
    const access = credentialsAccess(
      answering({ kind: 'issued', credential: { credential: 'x', value: SECRET } }),
      {},
    );
    expectNoSecrets(JSON.stringify(await access.get({ credential: 'x' })));
  });

  it('passes the tenant and principal to the provider', async () => {
    const seen: unknown[] = [];
    const provider: CredentialProvider = {
      resolve: async (request, who) => {
        seen.push({ request, who });
        return { kind: 'failed', reason: 'no' };
      },
    };
    await thrown(
      credentialsAccess(provider, { tenant: 't', principal: 'p' }).get({ credential: 'c', scopes: ['s'] }),
    );
    expect(seen).toEqual([
      { request: { credential: 'c', scopes: ['s'] }, who: { tenant: 't', principal: 'p' } },
    ]);
  });

  it('teaches how to attach a provider when none is attached', async () => {
    const error = await thrown(credentialsAccess(undefined, {}).get({ credential: 'github' }));
    expect(error.info).toMatchObject({
      kind: 'credential-failed',
      details: { credential: 'github', reason: 'no-provider' },
    });
    expect(error.message).toContain('createRuntime({ credentials })');
  });

  it('throws credential-failed with the provider reason', async () => {
    const error = await thrown(credentialsAccess(staticCredentials({}), {}).get({ credential: 'github' }));
    expect(error.info).toMatchObject({ kind: 'credential-failed', details: { reason: 'provider-refused' } });
    expect(error.message).toContain('staticCredentials');
  });

  it('refuses an expired, mismatched, scope-short or empty credential', async () => {
    const cases: Array<[CredentialAnswer, string]> = [
      [
        { kind: 'issued', credential: { credential: 'c', value: SECRET, expiresAt: Date.now() - 1 } },
        'expired',
      ],
      [{ kind: 'issued', credential: { credential: 'other', value: SECRET } }, 'mismatch'],
      [
        { kind: 'issued', credential: { credential: 'c', value: SECRET, scopes: ['read'] } },
        'scopes-not-granted',
      ],
      [{ kind: 'issued', credential: { credential: 'c' } as never }, 'invalid-answer'],
      [{ kind: 'maybe' } as never, 'invalid-answer'],
    ];
    for (const [answer, reason] of cases) {
      const error = await thrown(
        credentialsAccess(answering(answer), {}).get({ credential: 'c', scopes: ['write'] }),
      );
      expect(error.info.details?.reason).toBe(reason);
      expectNoSecrets(everyRendering(error));
    }
  });

  it('shows only the class name when the provider throws', async () => {
    const provider = answering(() => {
      throw new RangeError(`vault said ${SECRET}`);
    });
    const error = await thrown(credentialsAccess(provider, {}).get({ credential: 'c' }));
    expect(error.info).toMatchObject({ kind: 'credential-failed', details: { exception: 'RangeError' } });
    expectNoSecrets(everyRendering(error));
  });

  it('sends the authorization URL only to onAuthorizationUrl', async () => {
    const delivered: Array<[string, string]> = [];
    const provider = answering({
      kind: 'authorization-required',
      authorizationUrl: AUTH_URL,
      authorizationId: 'auth_given',
    });
    const access = credentialsAccess(provider, {}, (id, url) => delivered.push([id, url]));
    const error = await thrown(access.get({ credential: 'github' }));
    expect(error.info).toMatchObject({
      kind: 'authorization-required',
      retryable: true,
      details: { credential: 'github', authorizationId: 'auth_given', delivered: true },
    });
    expect(delivered).toEqual([['auth_given', AUTH_URL]]);
    expectNoSecrets(everyRendering(error));
  });

  it('makes up a random authorization id when the provider gives none', async () => {
    const ids: string[] = [];
    const access = credentialsAccess(
      answering({ kind: 'authorization-required', authorizationUrl: AUTH_URL }),
      {},
      (id) => ids.push(id),
    );
    const first = await thrown(access.get({ credential: 'github' }));
    const second = await thrown(access.get({ credential: 'github' }));
    expect(first.info.details?.authorizationId).toMatch(/^auth_[0-9A-Za-z]{22}$/);
    expect(second.info.details?.authorizationId).not.toBe(first.info.details?.authorizationId);
    expect(ids).toEqual([first.info.details?.authorizationId, second.info.details?.authorizationId]);
  });

  it('still pauses, without the URL, when there is no handler or it throws', async () => {
    const provider = answering({ kind: 'authorization-required', authorizationUrl: AUTH_URL });
    for (const handler of [
      undefined,
      () => {
        throw new Error(AUTH_URL);
      },
    ]) {
      const error = await thrown(credentialsAccess(provider, {}, handler).get({ credential: 'github' }));
      expect(error.info).toMatchObject({ kind: 'authorization-required', details: { delivered: false } });
      expectNoSecrets(everyRendering(error));
    }
  });

  it('refuses a request without a name', async () => {
    const error = await thrown(credentialsAccess(staticCredentials({}), {}).get({ credential: '' }));
    expect(error.info.details?.reason).toBe('invalid-request');
  });
});
