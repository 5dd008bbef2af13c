import { createServer } from 'node:http';
import { build } from 'esbuild';
import { freePort } from './wrangler-dev.js';

/** A page served on loopback, and how to stop serving it. */
export interface ServedPage {
  /** The port on 127.0.0.1 (the same server answers on localhost, another origin). */
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves one page on loopback: `body` as its HTML, then `script` bundled for the browser with the
 * packages found from `resolveDir` (the workspace's, or a consumer project's from the tarballs).
 */
export async function servePage(script: string, resolveDir: string, body = ''): Promise<ServedPage> {
  const bundle = await build({
    stdin: { contents: script, resolveDir, loader: 'js' },
    bundle: true,
    format: 'esm',
    write: false,
    conditions: ['browser'],
    logLevel: 'silent',
  });
  const bundled = bundle.outputFiles[0]!.text;
  const port = await freePort();
  const server = createServer((request, response) => {
    if (request.url?.startsWith('/page.js'))
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundled);
    else
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html>${body}<script type="module" src="/page.js"></script>`);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
