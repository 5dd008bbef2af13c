/**
 * The headers of a JSON body sent while its value is computed: never compressed (Miniflare and
 * proxies would hold the heartbeats back to compress them), never cached or buffered.
 */
export const jsonStreamHeaders = {
  'content-type': 'application/json',
  'content-encoding': 'identity',
  'cache-control': 'no-store, no-transform',
  'x-accel-buffering': 'no',
};

/** The headers of a JSON answer sent whole: a call that settled at once. */
export const jsonHeaders = { 'content-type': 'application/json', 'cache-control': 'no-store' };
