/**
 * Runs `step` until it reports no more work, one round at a time: a call while a round runs asks for one more and
 * shares its promise, so callers may ask as often as they like. Never rejects: a failing step goes to `onError` and
 * the next call tries again. The mail outbox and the response notifier drain this way.
 */
export function createDrainLoop(
  step: () => Promise<boolean>,
  onError: (error: unknown) => void,
): { run(): Promise<void>; stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  function run(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          if (await step()) again = true;
        } catch (error) {
          onError(error);
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  }
  return {
    run,
    async stop() {
      stopped = true;
      await running;
    },
  };
}

/**
 * `run` once, `delayMs` (a number, or what it returns at the nudge) after the first nudge of a burst: the batches that
 * commit meanwhile are served by that one
 * pass. The notifier and the webhook sender are nudged after every committed batch this way.
 */
export function createNudger(
  run: () => unknown,
  delayMs: number | (() => number),
): { nudge(): void; cancel(): void } {
  let pending: NodeJS.Timeout | undefined;
  return {
    nudge() {
      if (pending) return;
      pending = setTimeout(
        () => {
          pending = undefined;
          void run();
        },
        typeof delayMs === 'number' ? delayMs : delayMs(),
      );
      pending.unref();
    },
    cancel() {
      clearTimeout(pending);
      pending = undefined;
    },
  };
}
