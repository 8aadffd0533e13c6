// With WORKERS > 1 a scrape of /metrics reaches one worker of several; alone, its counters would look like resets
// from one scrape to the next. The worker that takes the scrape asks the primary instead, which collects the
// registry of every worker serving and merges them (prom-client's aggregation: counters summed, gauges as each
// says): one view of the whole server. docs/scaling.md.
import cluster, { type Worker } from 'node:cluster';
import type { Registry } from 'prom-client';

const TYPE = 'easyform:metrics';
/** One worker's registry as prom-client reads it out (`getMetricsAsJSON`), which its aggregation merges. */
type Part = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;
/** How long the primary waits for a worker's registry; one that has not answered by then is left out. */
const COLLECT_MS = 3_000;

type Message =
  | { type: typeof TYPE; kind: 'ready' }
  | { type: typeof TYPE; kind: 'scrape'; id: number }
  | { type: typeof TYPE; kind: 'collect'; id: number }
  | { type: typeof TYPE; kind: 'part'; id: number; metrics: Part }
  | { type: typeof TYPE; kind: 'merged'; id: number; text?: string; error?: string };

const isOurs = (message: unknown): message is Message =>
  typeof message === 'object' && message !== null && (message as Message).type === TYPE;

/** In the primary: answers a worker's scrape with the merged registries of every worker that serves metrics. */
export function serveMetricsToWorkers(): void {
  const ready = new Set<Worker>();
  const collecting = new Map<number, (worker: Worker, metrics: Part) => void>();
  let nextCollect = 0;

  const collectAll = async (): Promise<string> => {
    const id = nextCollect++;
    const asked = [...ready].filter((worker) => worker.isConnected());
    const parts: Part[] = [];
    await new Promise<void>((resolve) => {
      const answered = new Set<Worker>();
      const timer = setTimeout(resolve, COLLECT_MS);
      collecting.set(id, (worker, metrics) => {
        if (answered.has(worker)) return;
        answered.add(worker);
        parts.push(metrics);
        if (answered.size === asked.length) {
          clearTimeout(timer);
          resolve();
        }
      });
      for (const worker of asked) worker.send({ type: TYPE, kind: 'collect', id } satisfies Message);
      if (asked.length === 0) resolve();
    });
    collecting.delete(id);
    // prom-client is loaded only when a scrape comes, as in a single process.
    const { AggregatorRegistry } = await import('prom-client');
    return AggregatorRegistry.aggregate(parts).metrics();
  };

  cluster.on('exit', (worker) => ready.delete(worker));
  cluster.on('message', (worker, message: unknown) => {
    if (!isOurs(message)) return;
    if (message.kind === 'ready') ready.add(worker);
    else if (message.kind === 'part') collecting.get(message.id)?.(worker, message.metrics);
    else if (message.kind === 'scrape') {
      const { id } = message;
      const answer = (reply: Message) => {
        if (worker.isConnected()) worker.send(reply);
      };
      collectAll().then(
        (text) => answer({ type: TYPE, kind: 'merged', id, text }),
        (error: unknown) => answer({ type: TYPE, kind: 'merged', id, error: String(error) }),
      );
    }
  });
}

/**
 * In a worker: offers `register` to the primary's collection, and returns how to get the merged text of every
 * worker's registries (it throws when the primary answers with an error).
 */
export function metricsOfAllWorkers(register: Registry): () => Promise<string> {
  const waiting = new Map<number, { resolve(text: string): void; reject(error: Error): void }>();
  let nextScrape = 0;
  process.on('message', (message: unknown) => {
    if (!isOurs(message)) return;
    if (message.kind === 'collect') {
      const { id } = message;
      void register.getMetricsAsJSON().then(
        (metrics) => process.send?.({ type: TYPE, kind: 'part', id, metrics } satisfies Message),
        () => process.send?.({ type: TYPE, kind: 'part', id, metrics: [] } satisfies Message),
      );
    } else if (message.kind === 'merged') {
      const pending = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.text !== undefined) pending?.resolve(message.text);
      else pending?.reject(new Error(message.error ?? 'no answer'));
    }
  });
  process.send?.({ type: TYPE, kind: 'ready' } satisfies Message);
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = nextScrape++;
      waiting.set(id, { resolve, reject });
      process.send?.({ type: TYPE, kind: 'scrape', id } satisfies Message);
    });
}
