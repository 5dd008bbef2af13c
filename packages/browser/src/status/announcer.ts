/** What the visually hidden live region is told, and how often. */
export interface Announcer {
  /** A start, a finish, a failure, a wait: said at the next write. */
  milestone(text: string): void;
  /** A report: said at most once per `everyMs`, the latest one winning. The line's text is read
   * only when it is said, so reports in between cost no formatting. Answers whether a flush at
   * `now` would say it. */
  progress(line: { readonly text: string }, now: number): boolean;
  /** Writes what is due into the region; called at each frame the widget draws, and by the ticker. */
  flush(now: number): void;
}

/**
 * Feeds one `aria-live` region so a screen reader hears what matters without hearing every event:
 * milestones at once, progress throttled.
 */
export function createAnnouncer(region: HTMLElement, everyMs: number): Announcer {
  const due: string[] = [];
  let waiting: { readonly text: string } | undefined;
  let lastProgress = Number.NEGATIVE_INFINITY;
  return {
    milestone(text) {
      due.push(text);
      // A report queued before a finish would be stale after it.
      waiting = undefined;
    },
    progress(line, now) {
      waiting = line;
      return now - lastProgress >= everyMs;
    },
    flush(now) {
      if (waiting !== undefined && now - lastProgress >= everyMs) {
        due.push(waiting.text);
        waiting = undefined;
        lastProgress = now;
      }
      if (!due.length) return;
      region.textContent = due.join('\n');
      due.length = 0;
    },
  };
}
