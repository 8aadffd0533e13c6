/**
 * Group commit: requests that arrive while a batch is being written wait and go together in the next one, so N
 * concurrent submissions cost one transaction (one WAL flush) instead of N. There is no timer: a lone request is
 * written at the end of the current event-loop turn, and batches only form under load, so latency never waits
 * for company.
 */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export type Batcher<In, Out> = { add(item: In): Promise<Out> };

/**
 * `writers` batches may be written at once (a server database overlaps one batch's round trips and flush with
 * the next; an embedded one gains nothing from it). `write` gets the waiting items in arrival order and answers one outcome per item, in the same order. If it
 * throws, every item of that batch fails with the error.
 */
export function createBatcher<In, Out>(
  write: (items: In[]) => Promise<Outcome<Out>[]>,
  options: { maxBatch: number; writers: number },
): Batcher<In, Out> {
  const { maxBatch, writers } = options;
  type Waiting = { item: In; resolve: (value: Out) => void; reject: (error: unknown) => void };
  const queue: Waiting[] = [];
  let writing = 0;

  async function writeBatch(batch: Waiting[]): Promise<void> {
    try {
      const outcomes = await write(batch.map((w) => w.item));
      batch.forEach((w, i) => {
        const outcome = outcomes[i];
        if (!outcome) w.reject(new Error('group commit answered fewer outcomes than items'));
        else if (outcome.ok) w.resolve(outcome.value);
        else w.reject(outcome.error);
      });
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }

  let scheduled = false;

  function next(): void {
    if (scheduled || writing >= writers || queue.length === 0) return;
    scheduled = true;
    // Start after this turn of the event loop, so that every request whose bytes arrived in it (parsed in the
    // same poll phase) joins the batch. An embedded database works on this thread and would otherwise finish
    // each write before the next request is even read.
    setImmediate(() => {
      scheduled = false;
      if (writing >= writers || queue.length === 0) return;
      writing++;
      void writeBatch(queue.splice(0, maxBatch)).finally(() => {
        writing--;
        next();
      });
    });
  }

  return {
    add: (item) =>
      new Promise<Out>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        next();
      }),
  };
}
