// Each code block in a README or a guide (docs/guides/) marked `<!-- example: docs/examples/NAME.ts -->`
// must be byte-identical to that file, which the typecheck task compiles; every example file must
// be shown somewhere; and every TypeScript or JSON block of a guide is marked, so none goes
// unchecked (the root README's too). `--write` copies the files into the marked blocks.
import { readdir, readFile, writeFile } from 'node:fs/promises';

const root = new URL('../../', import.meta.url);
const guides = (await readdir(new URL('docs/guides/', root))).filter((name) => name.endsWith('.md'));
const readmes = [
  'README.md',
  ...(await readdir(new URL('packages/', root))).map((p) => `packages/${p}/README.md`),
  ...guides.map((name) => `docs/guides/${name}`),
];
const marked = /<!-- example: (\S+) -->\n\n?```(\w*)\n([\s\S]*?)```\n/g;
const write = process.argv.includes('--write');
const problems = [];
const shown = new Set();
// `<!-- install: NAME -->` and `<!-- run: NAME -->` blocks, which the consumer tests run: one shown
// in several docs must be the same block in each, since the tests take the first they find.
const steps = new Map();

for (const readme of readmes) {
  const url = new URL(readme, root);
  const text = await readFile(url, 'utf8').catch(() => null);
  if (text === null) continue;
  let next = text;
  for (const [block, path, lang, code] of text.matchAll(marked)) {
    shown.add(path);
    const file = await readFile(new URL(path, root), 'utf8').catch(() => null);
    if (file === null) problems.push(`${readme}: the example ${path} does not exist.`);
    else if (file !== code) {
      if (write) next = next.replace(block, `<!-- example: ${path} -->\n\n\`\`\`${lang}\n${file}\`\`\`\n`);
      else problems.push(`${readme}: the block marked ${path} differs from that file.`);
    }
  }
  if (next !== text) await writeFile(url, next);
  for (const [, marker, code] of text.matchAll(
    /<!-- ((?:install|run): \S+) -->\n\n?```\w*\n([\s\S]*?)```\n/g,
  )) {
    const first = steps.get(marker);
    if (!first) steps.set(marker, { readme, code });
    else if (first.code !== code)
      problems.push(
        `${readme}: the block marked ${marker} differs from the one in ${first.readme}; make them one.`,
      );
  }
  if (readme.startsWith('packages/')) continue; // their snippets are reference, not quick starts
  for (const [, marker, lang] of text.matchAll(/(<!-- example: \S+ -->\n\n?)?^```(\w*)\n[\s\S]*?^```\n/gm))
    if (!marker && !['sh', 'text', ''].includes(lang))
      problems.push(
        `${readme}: a \`${lang}\` block is not marked <!-- example: docs/examples/… -->, so nothing compiles it.`,
      );
}
for (const name of await readdir(new URL('docs/examples/', root))) {
  if (!shown.has(`docs/examples/${name}`))
    problems.push(
      `docs/examples/${name} is shown in no README or guide; mark a block with <!-- example: docs/examples/${name} -->.`,
    );
}
if (problems.length > 0) {
  console.error(
    `${problems.join('\n')}\nFix: edit the file under docs/examples/ (it is type-checked), then run \`pnpm docs:examples\` to copy it into the README or guide.`,
  );
  process.exit(1);
}
console.log(`README and guide examples: ${shown.size} blocks match their compiled files.`);
