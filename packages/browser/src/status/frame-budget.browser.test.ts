import { afterEach, describe, expect, it } from 'vitest';
import { attachStatus } from './attach-status.js';
import { container, fakeSource, frames, lineTexts, textSettled } from './test-helpers.js';

afterEach(() => {
  document.body.replaceChildren();
});

/**
 * Watches `element` for mutation batches and counts animation frames. Each batch records the
 * frame it happened in (`document.timeline.currentTime` is the same for all of one frame's work).
 */
function watch(element: HTMLElement) {
  const batchFrames: number[] = [];
  let frameCount = 0;
  let running = true;
  const tick = () => {
    frameCount++;
    if (running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const observer = new MutationObserver(() => {
    batchFrames.push(Number(document.timeline.currentTime));
  });
  observer.observe(element, { subtree: true, childList: true, characterData: true, attributes: true });
  return {
    stop() {
      running = false;
      observer.disconnect();
      return { batchFrames, frameCount };
    },
  };
}

describe('attachStatus under a flood of progress', () => {
  it('writes the DOM at most once per frame for 10,000 reports fired at once', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source);
    const watcher = watch(element);
    for (let n = 1; n <= 10_000; n++) {
      source.emit('tool.progress', `c${n % 4}`, {
        tool: 't',
        payload: { message: `report ${n}`, done: n, total: 10_000 },
        n,
      });
    }
    await frames(3);
    const { batchFrames, frameCount } = watcher.stop();
    expect(batchFrames.length).toBeGreaterThanOrEqual(1);
    expect(batchFrames.length).toBeLessThanOrEqual(frameCount);
    expect(new Set(batchFrames).size).toBe(batchFrames.length);
    expect(lineTexts(element)).toEqual(['report 9997', 'report 9998', 'report 9999', 'report 10000']);
  });

  it('writes the DOM at most once per frame at 10,000 reports a second from timers', async () => {
    const source = fakeSource();
    const element = container();
    attachStatus(element, source);
    const watcher = watch(element);
    let n = 0;
    await new Promise<void>((resolve) => {
      const started = performance.now();
      const timer = setInterval(() => {
        // Catch up to 10 reports per elapsed millisecond, whatever the timer's real resolution.
        const due = Math.min(10_000, Math.round((performance.now() - started) * 10));
        while (n < due) {
          n++;
          source.emit('tool.progress', `c${n % 3}`, { tool: 't', payload: { message: `at ${n}` }, n });
        }
        if (n >= 10_000) {
          clearInterval(timer);
          resolve();
        }
      }, 1);
    });
    // The latest text follows within 100 ms of the last report.
    await textSettled();
    const { batchFrames, frameCount } = watcher.stop();
    expect(n).toBe(10_000);
    expect(frameCount).toBeGreaterThan(10);
    expect(batchFrames.length).toBeLessThanOrEqual(frameCount);
    expect(new Set(batchFrames).size).toBe(batchFrames.length);
    expect(batchFrames.length).toBeLessThan(n / 50);
    expect(lineTexts(element)).toEqual(['at 10000', 'at 9998', 'at 9999']);
  });
});
