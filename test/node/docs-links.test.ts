// The README is the front door and the guides under docs/guides/ hold the rest, so a person
// navigates by links: each link of the README, the guides, the package READMEs and the root docs
// that points into this repository (relative, or https://github.com/toolctx/toolctx/blob/main/…)
// must name a file that exists and, with a `#anchor`, a heading that file has, as GitHub makes
// anchors from headings. A section that moves or is renamed fails here, naming the stale link.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const repoUrl = 'https://github.com/toolctx/toolctx';
const guides = readdirSync(join(root, 'docs/guides'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/guides/${name}`);
const docs = [
  'README.md',
  ...guides,
  'packages/core/README.md',
  'packages/browser/README.md',
  'packages/edge/README.md',
  'CONTRIBUTING.md',
  'ARCHITECTURE.md',
  'SECURITY.md',
];

/** Markdown without its fenced code blocks, where `](` is code, not a link. */
const prose = (markdown: string) =>
  markdown
    .split(/^```.*$/m)
    .filter((_, i) => i % 2 === 0)
    .join('\n');

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** Each link of `doc` into this repository: the target's path from the root, and its anchor. */
function links(doc: string): { link: string; path: string; anchor: string | undefined }[] {
  const found = [];
  for (const [, link] of prose(readFileSync(join(root, doc), 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
    let target = link!;
    if (target.startsWith(`${repoUrl}/blob/main/`)) target = target.slice(`${repoUrl}/blob/main/`.length);
    else if (target.startsWith(`${repoUrl}/tree/main/`))
      target = target.slice(`${repoUrl}/tree/main/`.length);
    else if (target.startsWith(`${repoUrl}#`)) target = `/README.md${target.slice(repoUrl.length)}`;
    else if (target === repoUrl) target = '/README.md';
    else if (/^[a-z]+:/.test(target)) continue;
    else if (!target.startsWith('#')) target = normalize(join(dirname(doc), target));
    const [file, anchor] = target.split('#');
    found.push({ link: link!, path: file ? file.replace(/^\//, '') : doc, anchor });
  }
  return found;
}

describe('the links of the README, the guides and the package READMEs', () => {
  it('name files that exist and headings those files have', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const doc of docs) {
      for (const { link, path, anchor } of links(doc)) {
        checked++;
        if (!existsSync(join(root, path))) broken.push(`${doc}: ${link} (no ${path})`);
        else if (
          anchor &&
          path.endsWith('.md') &&
          !anchors(readFileSync(join(root, path), 'utf8')).has(anchor)
        )
          broken.push(`${doc}: ${link} (no heading #${anchor} in ${path})`);
      }
    }
    expect(checked, 'links were found to check').toBeGreaterThan(100);
    expect(broken, 'each link names a file and a heading that exist').toEqual([]);
  });

  it('lead from the README to every guide', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(guides.length).toBeGreaterThan(4);
    expect(guides.filter((guide) => !readme.includes(`](${guide})`))).toEqual([]);
  });

  it('keep the README a front door: under 260 lines', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThan(260);
  });
});
