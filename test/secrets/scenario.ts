// The secret-hygiene scenario: a runtime that holds a planted credential value and hands out a
// planted authorization URL, with tools that misuse the credential the ways a tool author might
// by accident, through every channel a call has: progress, log, emit, the error it fails with (its
// message and details), and the label, kind and media type of an artifact it saves; as itself,
// URL-encoded and in base64. Shared by the in-process test and the Worker (worker.ts) so both run
// the same tools.
import {
  type ArtifactStore,
  type CredentialProvider,
  createRuntime,
  defineTool,
  ToolctxError,
} from '@toolctx/core';
import { createMemoryArtifactStore, staticCredentials } from '@toolctx/core/memory';
import { z } from 'zod';

// A space, '/', '+', '~' and '!' make its encodeURIComponent, encodeURI and form encodings differ.
export const SECRET = 'sk-PLANTED/7f3a+9c1e 5b~!Q';
export const AUTH_URL = 'https://auth.example.test/authorize?state=PLANTED-STATE-42';

const base64url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * The characters of `btoa(before + secret + …)` whose six bits all come from the secret: present
 * in every base64 text that holds it `before.length` bytes in (mod 3), whatever surrounds it.
 */
function base64Middle(secret: string, before: string): string {
  const first = Math.ceil((8 * before.length) / 6);
  const end = Math.floor((8 * (before.length + secret.length)) / 6);
  return btoa(before + secret).slice(first, end);
}

/** Every form in which a leak could appear on the wire. */
export const plantedForms = [
  // Any leak of the raw value or of the authorization URL's state, whole or cut, URL-encoded or not.
  'PLANTED',
  encodeURIComponent(SECRET),
  new URLSearchParams({ k: SECRET }).toString().slice(2),
  encodeURI(SECRET),
  encodeURIComponent(AUTH_URL),
  // Its base64 and base64url at each of the three alignments a longer base64 text can give it.
  ...['', 'x', 'xy'].flatMap((before) => {
    const middle = base64Middle(SECRET, before);
    return [middle, middle.replace(/\+/g, '-').replace(/\//g, '_')];
  }),
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
    execute: async ({ q, fail }, ctx) => {
      const key = ctx.credential!.value;
      const url = `https://api.example.test/search?q=${q}&key=${encodeURIComponent(key)}`;
      ctx.progress({ message: `searching "${q}" with ${String(ctx.credential)}`, done: 1, total: 2 });
      ctx.progress({ message: `GET ${url}`, done: 1, total: 2 });
      ctx.emit('debug', JSON.parse(JSON.stringify({ credential: ctx.credential })));
      ctx.emit('request', {
        basic: `Basic ${btoa(`user:${key}`)}`,
        token: base64url(key),
        path: encodeURI(`/k/${key}`),
      });
      ctx.progress(`key is ${ctx.credential}`);
      ctx.log('debug', `calling with ${key}`, {
        authorization: `Bearer ${key}`,
        form: new URLSearchParams({ q, key }).toString(),
        base64: btoa(key),
      });
      ctx.log('info', 'the credential as data', { credential: ctx.credential });
      const saved = await ctx.artifacts.put({
        kind: `search-results ${key}`,
        mediaType: `application/json; key=${encodeURIComponent(key)}`,
        label: `results for ${q} (key ${btoa(key)})`,
        data: { q, hits: 3 },
      });
      if (fail) {
        throw new ToolctxError('tool-error', `search failed with key ${key}`, {
          details: { url, authorization: `Basic ${btoa(`user:${key}`)}`, [key]: [saved.ref] },
        });
      }
      return { q, hits: 3, saved: saved.ref, credential: JSON.parse(JSON.stringify(ctx.credential)) };
    },
  }),
  defineTool({
    name: 'pull_key',
    description: 'Reads the key through the pull API and fails with it in a foreign error.',
    inputSchema: z.object({}),
    execute: async (_args, ctx) => {
      const key = await ctx.credentials.get({ credential: 'search-api' });
      ctx.progress({ message: `pulled ${base64url(`:${key.value}`)}` });
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

/** The scenario's runtime; its artifacts in memory unless a store is given (the Worker's KV+R2). */
export function scenarioRuntime(artifacts: ArtifactStore = createMemoryArtifactStore()) {
  return createRuntime({
    tools,
    artifacts,
    credentials: provider,
    onAuthorizationUrl: (_id, url) => void deliveredUrls.push(url),
  });
}

/**
 * Where a planted form occurs in `text`, or [] when it is clean. Read as sent and percent-decoded
 * too (form `+` included), so a form inside an encoded header (a label in `content-disposition`) is
 * found as well.
 */
export function leaksIn(text: string): string[] {
  const decoded = (from: string) =>
    from.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  const readings = [text, decoded(text), decoded(text.replace(/\+/g, ' '))];
  return plantedForms.filter((form) => readings.some((reading) => reading.includes(form)));
}
