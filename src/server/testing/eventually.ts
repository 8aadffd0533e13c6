// Waiting for what happens on its own schedule (a mail sent, a webhook delivered) without a fixed sleep.

/** Waits for `check` to hold; on timeout, the error says what `explain` finds then (what was seen instead). */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  explain?: () => Promise<string>,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end)
      throw new Error(`condition not met in time${explain ? `: ${await explain()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
