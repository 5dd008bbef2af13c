const KEY_CACHE = 'toolctx-demo';
const KEY_URL = '/page-side-demo-key';

/**
 * The page side's demo API key: made on first use and kept in this origin's Cache Storage, so
 * signatures stay comparable across reloads. It is never in the page's code or any response, and
 * only the Web Worker's credential provider reads it.
 */
export async function pageKey(): Promise<string> {
  const cache = await caches.open(KEY_CACHE);
  const kept = await cache.match(KEY_URL);
  if (kept) return kept.text();
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const key = `pagekey_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  await cache.put(KEY_URL, new Response(key));
  return key;
}
