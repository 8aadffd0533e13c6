// The yardstick for the customer page: a bare React 19 page with one form, built by the repo's Vite the same way.
import { readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { root } from './server.ts';

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Form</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/main.tsx"></script>
  </body>
</html>
`;

const MAIN = `import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

function App() {
  const [name, setName] = useState('');
  const [sent, setSent] = useState(false);
  return (
    <form onSubmit={(e) => { e.preventDefault(); setSent(true); }}>
      <h1>Workshop registration</h1>
      <label>Full name <input value={name} onChange={(e) => setName(e.target.value)} required /></label>
      <button type="submit">Submit</button>
      {sent && <p>Thank you, {name}</p>}
    </form>
  );
}

createRoot(document.getElementById('root')!).render(<StrictMode><App /></StrictMode>);
`;

/**
 * The floor for the public form's LCP: the same heading, description and first question drawn by a server, with no
 * stylesheet and no script. This page's LCP under the bench's throttling is the browser's own cost of opening any
 * page on this machine, below which no change of ours can go.
 */
const PLAIN = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Workshop registration</title>
  </head>
  <body>
    <h1>Workshop registration</h1>
    <p>Tell us who you are and what you would like to do.</p>
    <form method="post"><label>Full name <input name="name" required /></label> <button>Submit</button></form>
  </body>
</html>
`;

/** Where serveBaseline answers with the plain page. */
export const PLAIN_PAGE = 'plain.html';
/**
 * The plain page again, sent with `Cross-Origin-Opener-Policy: same-origin`, as the owner's pages are and the
 * customer's were until 2026-11-26. Opened from a fresh tab (as the bench and Lighthouse open every page), Chromium
 * reuses the blank tab's renderer for a page without the header but starts a new renderer for one with it, after
 * the headers are in. This page measures what that costs, in the same run (ADR 014 addendum).
 */
export const PLAIN_COOP_PAGE = `${PLAIN_PAGE}?coop`;

export type BuiltPage = { dir: string; assets: { name: string; bytes: number; gzip: number }[] };

export const gzipSize = (content: Uint8Array) => gzipSync(content, { level: 9 }).length;

/** Builds the bare page in a temp folder (node_modules linked to the repo's) with plugin-react, like vite.config.ts. */
export async function buildBaseline(): Promise<BuiltPage> {
  const dir = await mkdtemp(join(tmpdir(), 'easyform-bench-baseline-'));
  await mkdir(join(dir, 'src'));
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await writeFile(join(dir, 'src', 'index.html'), INDEX);
  await writeFile(join(dir, 'src', 'main.tsx'), MAIN);
  await build({
    configFile: false,
    root: join(dir, 'src'),
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: join(dir, 'dist'), emptyOutDir: true, sourcemap: true },
  });
  await writeFile(join(dir, 'dist', PLAIN_PAGE), PLAIN);
  const assetsDir = join(dir, 'dist', 'assets');
  const assets = readdirSync(assetsDir)
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => {
      const content = readFileSync(join(assetsDir, name));
      return { name, bytes: content.length, gzip: gzipSize(content) };
    });
  return { dir, assets };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
};

/** Serves the built page gzipped, so its load can be timed under the same throttling as ours. */
export async function serveBaseline(page: BuiltPage): Promise<{ url: string; close: () => Promise<void> }> {
  const dist = join(page.dir, 'dist');
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const file = join(dist, path === '/' ? 'index.html' : path);
    try {
      const body = gzipSync(readFileSync(file), { level: 9 });
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-encoding': 'gzip',
        ...(req.url?.endsWith('?coop') ? { 'cross-origin-opener-policy': 'same-origin' } : {}),
      });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(page.dir, { recursive: true, force: true });
    },
  };
}
