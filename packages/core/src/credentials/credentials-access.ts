import type { AskAnswer, AskUrl } from '../ask/ask.js';
import { ToolctxError, toErrorInfo } from '../errors.js';
import { randomId } from '../random-id.js';
import { type Credential, createCredential } from './credential.js';
import type {
  CredentialAnswer,
  CredentialProvider,
  CredentialRequest,
  CredentialSubject,
} from './credential-provider.js';

/**
 * The tool's side of credentials (`ctx.credentials`): fail-closed, it either returns the
 * credential or throws a {@link ToolctxError} explaining why not.
 *
 * @example
 * ```ts
 * import type { CredentialsAccess } from '@toolctx/core';
 * const token = async (credentials: CredentialsAccess) => (await credentials.get({ credential: 'github' })).value;
 * ```
 */
export interface CredentialsAccess {
  /** The credential `request` names for this call's tenant and principal; throws a ToolctxError when there is none. */
  get(request: CredentialRequest): Promise<Credential>;
}

/**
 * Receives the link a user must open to grant access, for a call that cannot ask its user (a
 * call that can gets it as a URL ask instead). Besides the call's ask, it is the only place the
 * URL goes: never into an error, an event or a result.
 *
 * @example
 * ```ts
 * import type { AuthorizationUrlHandler } from '@toolctx/core';
 * const pendingLinks = new Map<string, string>(); // shown to the person, never to the model
 * const onAuthorizationUrl: AuthorizationUrlHandler = (id, url) => pendingLinks.set(id, url);
 * ```
 */
export type AuthorizationUrlHandler = (authorizationId: string, authorizationUrl: string) => void;

/**
 * Puts a credential's sign-in to the call's user as a URL ask, named by `key` among the call's
 * asks; rejects `unsupported` where no one can be asked.
 */
export type AskForAccess = (request: AskUrl, key: string) => Promise<AskAnswer>;

/**
 * Builds `ctx.credentials` for one run's tenant and principal.
 *
 * - No provider: every `get` throws `credential-failed`, naming `createRuntime({ credentials })`.
 * - `failed` (or a provider that throws, an expired or mismatched credential, missing scopes):
 *   throws `credential-failed` with `details.reason`.
 * - `authorization-required`, where the call can ask its user (`askForAccess`): a URL ask sends
 *   the person to the provider's link. `accept` (they finished there) asks the provider again
 *   once; `decline` throws `credential-failed` (reason `declined`). An ask not answered, or a
 *   call that cannot ask: the URL goes to `onAuthorizationUrl` and `get` throws
 *   `authorization-required` with `details.authorizationId` (`auth_…` when the provider gave none).
 * - `issued`: returns the credential, wrapped so its value does not print (see {@link createCredential}).
 */
export function credentialsAccess(
  provider: CredentialProvider | undefined,
  who: CredentialSubject,
  onAuthorizationUrl?: AuthorizationUrlHandler,
  askForAccess?: AskForAccess,
): CredentialsAccess {
  return {
    async get(request) {
      const name = typeof request?.credential === 'string' ? request.credential : '';
      if (name === '') {
        throw failure('(unnamed)', 'invalid-request', 'Ask for one by name: get({ credential: "github" }).');
      }
      if (!provider) {
        throw failure(
          name,
          'no-provider',
          'No credential provider is attached to this runtime. Pass one with createRuntime({ credentials }) ' +
            `(staticCredentials({ ${JSON.stringify(name)}: '…' }) for a quick start), and check ctx.hasCredentials first.`,
        );
      }
      const resolve = async (): Promise<CredentialAnswer> => {
        try {
          return await provider.resolve({ ...request }, { ...who });
        } catch (thrown) {
          const { exception } = toErrorInfo(thrown);
          throw failure(name, 'provider-threw', `The credential provider threw ${exception}.`, { exception });
        }
      };
      let answer = await resolve();
      let asked: AskAnswer['action'] | undefined;
      if (answer?.kind === 'authorization-required' && askForAccess) {
        asked = await askAccess(name, answer.authorizationUrl, askForAccess);
        if (asked === 'decline') throw failure(name, 'declined', 'The person declined to grant access.');
        // They say they finished: the provider is asked once more.
        if (asked === 'accept') answer = await resolve();
      }
      switch (answer?.kind) {
        case 'issued':
          return checkIssued(request, answer.credential);
        case 'authorization-required': {
          const authorizationId = answer.authorizationId || randomId('auth_');
          let delivered = asked !== undefined;
          if (!delivered && onAuthorizationUrl && typeof answer.authorizationUrl === 'string') {
            try {
              onAuthorizationUrl(authorizationId, answer.authorizationUrl);
              delivered = true;
            } catch {
              // The handler's failure must not replace the pause; `delivered` tells the host.
            }
          }
          const went =
            asked === 'accept'
              ? 'The person said they finished at the authorization link, but the provider still needs it'
              : asked === 'cancel'
                ? 'The person was asked to open the authorization link and did not answer'
                : 'The authorization link went to the host';
          throw new ToolctxError(
            'authorization-required',
            `Credential \`${name}\` needs the user to grant access first. ${went} (authorization ` +
              `${authorizationId}); call the tool again once access is granted.`,
            { retryable: true, details: { credential: name, authorizationId, delivered } },
          );
        }
        case 'failed':
          throw failure(name, 'provider-refused', String(answer.reason));
        default:
          throw failure(name, 'invalid-answer', 'The credential provider gave an answer of no known kind.');
      }
    },
  };
}

/**
 * Sends the person to `url` through the call's ask; `undefined` when it cannot (no one to ask, or
 * a link an ask cannot carry), so the host's handler gets it instead.
 */
async function askAccess(
  name: string,
  url: string,
  askForAccess: AskForAccess,
): Promise<AskAnswer['action'] | undefined> {
  const message = `Grant access to ${name}: open the page, sign in, and come back when you are done.`;
  try {
    return (await askForAccess({ message, url }, `credential:${name}`)).action;
  } catch (thrown) {
    const { kind } = toErrorInfo(thrown);
    if (kind === 'unsupported' || kind === 'invalid-argument') return undefined;
    throw thrown;
  }
}

function checkIssued(request: CredentialRequest, issued: Credential): Credential {
  const name = request.credential;
  if (!issued || typeof issued.value !== 'string') {
    throw failure(name, 'invalid-answer', 'The credential provider issued no value.');
  }
  if (issued.credential !== undefined && issued.credential !== name) {
    throw failure(name, 'mismatch', `The credential provider issued \`${issued.credential}\` instead.`);
  }
  if (issued.expiresAt !== undefined && issued.expiresAt <= Date.now()) {
    throw failure(name, 'expired', 'The credential provider issued a credential that has already expired.');
  }
  const missing = issued.scopes
    ? (request.scopes ?? []).filter((scope) => !issued.scopes?.includes(scope))
    : [];
  if (missing.length > 0) {
    throw failure(
      name,
      'scopes-not-granted',
      `It does not grant ${missing.map((s) => `\`${s}\``).join(', ')}.`,
      {
        missingScopes: missing,
      },
    );
  }
  return createCredential({ ...issued, credential: name, value: issued.value });
}

function failure(
  name: string,
  reason: string,
  why: string,
  extra: Record<string, unknown> = {},
): ToolctxError {
  return new ToolctxError('credential-failed', `Credential \`${name}\` could not be obtained. ${why}`, {
    details: { credential: name, reason, ...extra },
  });
}
