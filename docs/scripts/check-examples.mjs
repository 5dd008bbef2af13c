// Each code block in a README marked `<!-- example: docs/examples/NAME.ts -->` must be
// byte-identical to that file, which the typecheck task compiles; and every example file must be
// shown somewhere. `--write` copies the files into the marked blocks.
import { readdir, readFile, writeFile } from 'node:fs/promises';

const root = new URL('../../', import.meta.url);
const readmes = [
  'README.md',
  ...(await readdir(new URL('packages/', root))).map((p) => `packages/${p}/README.md`),
];
const marked = /<!-- example: (\S+) -->\n\n?```(\w*)\n([\s\S]*?)```\n/g;
const write = process.argv.includes('--write');
const problems = [];
const shown = new Set();

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
}
for (const name of await readdir(new URL('docs/examples/', root))) {
  if (!shown.has(`docs/examples/${name}`))
    problems.push(
      `docs/examples/${name} is shown in no README; mark a block with <!-- example: docs/examples/${name} -->.`,
    );
}
if (problems.length > 0) {
  console.error(
    `${problems.join('\n')}\nFix: edit the file under docs/examples/ (it is type-checked), then run \`pnpm docs:examples\` to copy it into the README.`,
  );
  process.exit(1);
}
console.log(`README examples: ${shown.size} blocks match their compiled files.`);
