// The secret-hygiene scenario: a runtime that holds a planted credential value and hands out a
// planted authorization URL, with tools that misuse the credential the ways a tool author might
// by accident. Shared by the in-process test and the Worker (worker.ts) so both run the same tools.
import { type CredentialProvider, createRuntime, defineTool } from '@toolctx/core';
import { staticCredentials } from '@toolctx/core/memory';
import { z } from 'zod';

export const SECRET = 'sk-PLANTED-7f3a9c1e5b';
export const AUTH_URL = 'https://auth.example.test/authorize?state=PLANTED-STATE-42';

/** Every form in which a leak could appear on the wire. */
export const plantedForms = [
  SECRET,
  AUTH_URL,
  'PLANTED-7f3a9c1e5b',
  'PLANTED-STATE-42',
  encodeURIComponent(AUTH_URL),
  btoa(SECRET),
];

/** Authorization URLs the host was handed (the one place they may go). */
export const deliveredUrls: string[] = [];

const keys = staticCredentials({ 'search-api': SECRET });
const provider: CredentialProvider = {
  resolve: (request, who) =>
    request.credential === 'calendar'
      ? Promise.resolve({ kind: 'authorization-required', authorizationUrl: AUTH_URL })
      : keys.resolve(request, who),
};

const tools = [
  defineTool({
    name: 'search',
    description: 'Searches with an API key, and mishandles it.',
    inputSchema: z.object({ q: z.string(), fail: z.boolean().default(false) }),
    needs: { credential: 'search-api' },
    execute: ({ q, fail }, ctx) => {
      ctx.progress({ message: `searching "${q}" with ${String(ctx.credential)}`, done: 1, total: 2 });
      ctx.emit('debug', JSON.parse(JSON.stringify({ credential: ctx.credential })));
      ctx.progress(`key is ${ctx.credential}`);
      ctx.log('debug', `calling with ${ctx.credential?.value}`, {
        authorization: `Bearer ${ctx.credential?.value}`,
      });
      ctx.log('info', 'the credential as data', { credential: ctx.credential });
      if (fail) throw new Error(`search failed with key ${ctx.credential?.value}`);
      return { q, hits: 3, credential: JSON.parse(JSON.stringify(ctx.credential)) };
    },
  }),
  defineTool({
    name: 'pull_key',
    description: 'Reads the key through the pull API and fails with it in a foreign error.',
    inputSchema: z.object({}),
    execute: async (_args, ctx) => {
      const key = await ctx.credentials.get({ credential: 'search-api' });
      throw new TypeError(`bad key ${key.value}`);
    },
  }),
  defineTool({
    name: 'calendar',
    description: 'Needs an authorization the user has not given yet.',
    inputSchema: z.object({}),
    needs: { credential: 'calendar' },
    execute: () => 'events',
  }),
];

export const scenarioCalls = [
  { tool: 'search', args: { q: 'cats' } },
  { tool: 'search', args: { q: 'dogs', fail: true } },
  { tool: 'pull_key', args: {} },
  { tool: 'calendar', args: {} },
];

export function scenarioRuntime() {
  return createRuntime({
    tools,
    credentials: provider,
    onAuthorizationUrl: (_id, url) => void deliveredUrls.push(url),
  });
}

/** Where a planted form occurs in `text`, or [] when it is clean. */
export function leaksIn(text: string): string[] {
  return plantedForms.filter((form) => text.includes(form));
}
