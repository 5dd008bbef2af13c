// The tarballs as the npm registry would hold them: what their types resolve to (attw, ESM-only
// profile), publint's lints, the metadata a registry page shows, a LICENSE, README links that work
// outside GitHub, and no test-only files.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { describe, expect, it } from 'vitest';
import { sh, tarball } from './kit.js';

const attw = fileURLToPath(new URL('../node_modules/.bin/attw', import.meta.url));
const names = ['core', 'browser', 'edge'] as const;
const path = async (name: (typeof names)[number]) => (await tarball(name)).slice('file:'.length);
const entry = async (name: (typeof names)[number], file: string) =>
  (await sh('tar', ['-xzOf', await path(name), `package/${file}`], { cwd: '/' })).stdout;

describe.each(names)('the @toolctx/%s tarball', (name) => {
  it('resolves its types for every entry point under the ESM-only profile of attw', async () => {
    const { stdout } = await sh(attw, [await path(name), '--profile', 'esm-only', '--format', 'ascii'], {
      cwd: '/',
    });
    // attw exits non-zero on a problem; the lines also show each entry point as Node (ESM) and bundlers resolve it.
    const resolutions = stdout.split('\n').filter((line) => /^(node16 \(from ESM\)|bundler): /.test(line));
    expect(resolutions.length).toBeGreaterThanOrEqual(4);
    expect(resolutions.filter((line) => !line.includes('🟢'))).toEqual([]);
  });

  it('passes publint in strict mode', async () => {
    const tarballBytes = await readFile(await path(name));
    const result = await publint({ pack: { tarball: tarballBytes.buffer as ArrayBuffer }, strict: true });
    const problems = result.messages.map(
      (message) => `${message.type}: ${formatMessage(message, result.pkg)}`,
    );
    expect(problems).toEqual([]);
  });

  it('carries the metadata a registry page shows and the Node it needs', async () => {
    const pkg = JSON.parse(await entry(name, 'package.json'));
    expect(pkg).toMatchObject({
      license: 'MIT',
      repository: {
        type: 'git',
        url: expect.stringMatching(/^git\+https:\/\//),
        directory: `packages/${name}`,
      },
      homepage: expect.stringMatching(/^https:\/\//),
      bugs: { url: expect.stringMatching(/^https:\/\//) },
      engines: { node: expect.any(String) },
    });
    expect(pkg.keywords.length).toBeGreaterThan(2);
    expect(JSON.stringify(pkg)).not.toContain('workspace:');
  });

  it('ships the LICENSE and no test-only files', async () => {
    const files = (await sh('tar', ['-tzf', await path(name)], { cwd: '/' })).stdout.split('\n');
    expect(files).toContain('package/LICENSE');
    expect(await entry(name, 'LICENSE')).toMatch(/^MIT License/);
    const testOnly = files.filter((file) =>
      /\.test\.|test-env|test-utils|test-helpers|test-worker|\.check\.|fixture|door-suite\/|\.jsonc$/.test(
        file,
      ),
    );
    expect(testOnly).toEqual([]);
  });

  it('has a README whose links work outside GitHub: absolute, or anchors', async () => {
    const readme = await entry(name, 'README.md');
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((link) => !/^(https:\/\/|#)/.test(link))).toEqual([]);
  });
});
