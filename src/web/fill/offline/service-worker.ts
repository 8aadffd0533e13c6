import { sendAllQueued, SYNC_TAG } from './send-queued.ts';

/**
 * sw.js (docs/decisions/025-offline-customer-page.md): built on its own by vite.config.ts, which writes the list of
 * the customer page's files in place of PRECACHE. Its scope is `/`, because /preview and /fileUpload sit at the
 * root; it answers only the customer's pages, and their files and GET /api/publicForm when a customer's page asks,
 * and leaves every other request to the browser as if it were not there.
 */
type ExtendableEvent = Event & { waitUntil(promise: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & {
  request: Request;
  clientId: string;
  resultingClientId: string;
  respondWith(response: Promise<Response>): void;
};
type SyncEvent = ExtendableEvent & { tag: string };
type WorkerScope = {
  addEventListener(
    type: 'install' | 'activate' | 'message',
    listener: (event: ExtendableEvent) => void,
  ): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'sync', listener: (event: SyncEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void>; get(id: string): Promise<{ url: string } | undefined> };
  location: Location;
};
const worker = self as unknown as WorkerScope;

/** URL paths, comma-separated: the build writes them in (no path of ours holds a comma or a quote). */
const PRECACHE = '__EASYFORM_PRECACHE__'.split(',');
/** One cache per build: its name changes whenever a file in it does, and activate deletes the others. */
const CACHE = `easyform-customer-${hashOf(PRECACHE.join())}`;
/** customer.html as the server sends it for /preview, with the customer pages' headers (frame-ancestors *). */
const SHELL = '/preview';
const CUSTOMER_PAGE = /^\/(customer\/[^/]+\/[^/]+|preview|fileUpload)\/?$/i;
const PUBLIC_FORM = /^\/api\/publicForm\/[^/]+$/;

function hashOf(text: string): string {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return (hash >>> 0).toString(36);
}

worker.addEventListener('install', (event) =>
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => worker.skipWaiting()),
  ),
);

worker.addEventListener('activate', (event) =>
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((n) => n.startsWith('easyform-') && n !== CACHE).map((n) => caches.delete(n)),
        ),
      )
      .then(() => worker.clients.claim()),
  ),
);

/** The network's answer, kept for later when it is a 200; without a network, the kept one (or `fallback`). */
async function networkFirst(request: Request, key: string, fallback?: string): Promise<Response> {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const kept = (await cache.match(key)) ?? (fallback ? await cache.match(fallback) : undefined);
    if (kept) return kept;
    throw error;
  }
}

/** A file whose name carries its content hash never changes: the kept copy is the file. */
async function cacheFirst(request: Request, path: string): Promise<Response> {
  const kept = await caches.match(path);
  return kept ?? fetch(request);
}

/**
 * Owner pages are in the scope too (it is `/`), and they load a few of the same files (React, the shared chunk).
 * Each navigation tells which page (client) it makes, so a request from an owner page is left alone. A page this
 * worker has not seen navigate (it started before, or the worker was restarted since) is looked up, and a request
 * from a page that is not a customer's is then sent to the network as it is, never answered from the cache.
 */
const customerPages = new Set<string>();
const otherPages = new Set<string>();

async function fromCustomerPage(clientId: string): Promise<boolean> {
  const client = clientId ? await worker.clients.get(clientId) : undefined;
  const ours = client !== undefined && CUSTOMER_PAGE.test(new URL(client.url).pathname);
  (ours ? customerPages : otherPages).add(clientId);
  return ours;
}

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  // Owners' calls carry their token: never kept, never answered here.
  if (
    request.method !== 'GET' ||
    url.origin !== worker.location.origin ||
    request.headers.has('authorization')
  )
    return;
  const path = url.pathname;
  if (request.mode === 'navigate') {
    const ours = CUSTOMER_PAGE.test(path);
    (ours ? customerPages : otherPages).add(event.resultingClientId);
    if (ours) event.respondWith(networkFirst(request, path, SHELL));
    return;
  }
  const isForm = PUBLIC_FORM.test(path);
  if ((!isForm && !PRECACHE.includes(path)) || otherPages.has(event.clientId)) return;
  const answer = () => (isForm ? networkFirst(request, path) : cacheFirst(request, path));
  event.respondWith(
    customerPages.has(event.clientId)
      ? answer()
      : fromCustomerPage(event.clientId).then((ours) => (ours ? answer() : fetch(request))),
  );
});

// Background Sync: the browser wakes the worker once it is online; a rejection asks it to try again later.
worker.addEventListener('sync', (event) => {
  if (event.tag !== SYNC_TAG) return;
  event.waitUntil(
    sendAllQueued().then((allSent) => {
      if (!allSent) throw new Error('some submissions are still waiting for the network');
    }),
  );
});
