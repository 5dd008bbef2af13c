// Runs one benchmark function in a fresh Node process and gives back what it returned. Each Node
// benchmark gets a process of its own, so the JIT state and heap one leaves behind never weigh on
// the next. Measured in one process after (a), `ctx.progress` ran 1.3 M/s instead of 5.5 M/s:
// (a)'s recording sink keeps every event, so V8 pretenures the event's allocation site and later
// events, garbage at once, are made in old space (`--no-allocation-site-pretenuring` restores it).
//
//   await isolated('progress-rate.mjs', 'progressRate')  // in run.mjs
//   node --expose-gc isolated.mjs progress-rate.mjs progressRate   // the child: prints the JSON result
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const self = fileURLToPath(import.meta.url);

export async function isolated(module, name, ...args) {
  // `--expose-gc`: a benchmark may start each side from a collected heap (call-overhead.mjs).
  const argv = ['--expose-gc', self, module, name, JSON.stringify(args)];
  const { stdout } = await promisify(execFile)(process.execPath, argv, { maxBuffer: 16 << 20 });
  return JSON.parse(stdout);
}

if (process.argv[1] === self) {
  const [module, name, args = '[]'] = process.argv.slice(2);
  const run = (await import(new URL(module, import.meta.url).href))[name];
  process.stdout.write(JSON.stringify(await run(...JSON.parse(args))));
}
