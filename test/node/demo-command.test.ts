import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { budget, slowStart } from '../slowdown.js';

// The README's demo command, run as a user runs it, then stopped as Ctrl-C stops it: a SIGINT to
// the terminal's foreground process group.
const root = fileURLToPath(new URL('../..', import.meta.url));
const marker = `toolctx-demo-probe-${crypto.randomUUID()}`;
const port = 20_000 + Math.floor(Math.random() * 20_000);

/** Every live process that inherited the marker: the demo command and all it started. */
function processesWithMarker(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(marker)) found.push(Number(entry));
    } catch {
      // The process ended while we looked, or is not ours to read.
    }
  }
  return found;
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const started = performance.now();
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            slowStart(
              `the demo to print a line matching ${pattern}`,
              performance.now() - started,
              undefined,
              output,
            ),
          ),
        ),
      budget(timeoutMs),
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => pattern.test(l));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`demo exited (${code}) before printing its address:\n${output}`)),
    );
  });
}

describe('the demo command', () => {
  let demo: ChildProcess | undefined;
  afterAll(() => {
    for (const pid of processesWithMarker()) process.kill(pid, 'SIGKILL');
  });

  it('serves the page and /health on 127.0.0.1, says where, and leaves nothing behind on Ctrl-C', async () => {
    demo = spawn('npm', ['run', 'demo'], {
      cwd: root,
      detached: true, // its own process group, like a terminal's foreground job
      env: { ...process.env, PORT: String(port), TOOLCTX_PROBE: marker },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = await waitForLine(demo, /open http:\/\/127\.0\.0\.1:\d+/, 90_000);
    expect(line).toContain(`http://127.0.0.1:${port}`);

    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(await health.json()).toEqual({ ok: true });
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(await page.text()).toContain('<title>toolctx demo</title>');
    expect(processesWithMarker().length).toBeGreaterThan(2); // npm, bash, wrangler, workerd…

    const exited = new Promise<string>((resolve) =>
      demo!.once('exit', (code, signal) => resolve(signal ?? String(code))),
    );
    process.kill(-demo.pid!, 'SIGINT');
    // npm re-raises the interrupt on itself, as a shell expects of an interrupted job.
    expect(['0', 'SIGINT']).toContain(await exited);
    // Give the kernel a moment to reap, then nothing of the demo may be left.
    const reaping = budget(5000);
    for (
      const started = performance.now();
      performance.now() - started < reaping && processesWithMarker().length > 0;
    )
      await new Promise((r) => setTimeout(r, 100));
    expect(processesWithMarker()).toEqual([]);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });
});
