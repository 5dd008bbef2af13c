// The example Worker's authentication (src/worker.ts): who calls is read from the bearer token
// alone. `Bearer <TOOLCTX_TOKEN>` is the principal `default`; `Bearer <principal>.<signature>` is
// that principal, the signature being the base64url HMAC-SHA-256 of the name keyed with
// TOOLCTX_TOKEN (`principalToken` makes one). One secret serves any number of users, each token
// names its holder, and only whoever holds TOOLCTX_TOKEN can mint one.

import type { AuthAnswer } from '../door/authenticate.js';
import type { ExampleWorkerEnv } from '../env.js';

/**
 * Who calls is read from the token alone, never from a header the client picks: `Bearer
 * <TOOLCTX_TOKEN>` is the principal `default`, and `Bearer <principal>.<signature>` is that
 * principal, where the signature is the base64url HMAC-SHA-256 of the principal's name keyed with
 * TOOLCTX_TOKEN. So one secret serves any number of users, each token names its holder, and only
 * whoever holds TOOLCTX_TOKEN can mint one (README: "Deploy as a Cloudflare Worker"). Tokens are
 * compared as SHA-256 digests in constant time, so the answer's timing tells nothing of how much
 * of a guess was right. A refusal says which configuration is missing, never a token.
 */
export async function authenticate(request: Request, env: ExampleWorkerEnv): Promise<AuthAnswer> {
  const secret = env.TOOLCTX_TOKEN;
  if (!secret)
    return {
      refused:
        'TOOLCTX_TOKEN is not set for this Worker, so it refuses every request: put TOOLCTX_TOKEN=<token> in .dev.vars for wrangler dev, or run wrangler secret put TOOLCTX_TOKEN.',
    };
  const refused = {
    refused:
      "Send Authorization: Bearer <token>, with this Worker's TOOLCTX_TOKEN or a principal's token made from it.",
  };
  const header = request.headers.get('authorization');
  if (!header?.startsWith('Bearer ')) return refused;
  const token = header.slice('Bearer '.length);
  if (await sameSecret(token, secret)) return { tenant: 'default', principal: 'default' };
  // Else a principal's token: the name before the last dot (a name may hold dots, base64url never
  // does), and the signature that name must carry.
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return refused;
  const principal = token.slice(0, dot);
  return (await sameSecret(token, await principalToken(secret, principal)))
    ? { tenant: 'default', principal }
    : refused;
}

const utf8 = new TextEncoder();

/**
 * The bearer token of `principal` for a Worker whose TOOLCTX_TOKEN is `secret`: the name, a dot,
 * and the base64url HMAC-SHA-256 of the name keyed with the secret.
 */
export async function principalToken(secret: string, principal: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    utf8.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, utf8.encode(principal)));
  const signature = btoa(String.fromCharCode(...mac))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  return `${principal}.${signature}`;
}

/**
 * Whether two strings are equal, in time that depends on neither: their SHA-256 digests (always
 * 32 bytes) are compared with workerd's `crypto.subtle.timingSafeEqual`, or where it is missing
 * with an XOR over every byte.
 */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const [a, b] = (await Promise.all(
    [given, expected].map(
      async (text) => new Uint8Array(await crypto.subtle.digest('SHA-256', utf8.encode(text))),
    ),
  )) as [Uint8Array, Uint8Array];
  const subtle = crypto.subtle as SubtleCrypto & {
    timingSafeEqual?: (a: ArrayBufferView, b: ArrayBufferView) => boolean;
  };
  if (typeof subtle.timingSafeEqual === 'function') return subtle.timingSafeEqual(a, b);
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}
