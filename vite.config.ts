import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { createServer, defineConfig, type Plugin, type Rollup } from 'vite';

// The dev server proxies the API to the Fastify process that `npm run dev` starts beside it.
const apiPort = Number(process.env.API_PORT ?? 3001);
const outDir = 'dist/web';

/**
 * Writes .gz and .br beside every text asset once, at build time, so the server sends compressed files
 * (@fastify/static `preCompressed`) without spending CPU on each request.
 */
function precompress(): Plugin {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return {
    name: 'easyform-precompress',
    apply: 'build',
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!/\.(js|mjs|css|html|svg|json)$/.test(file)) continue;
        const content = readFileSync(file);
        if (content.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

/** The customer's pages are customer.html (docs/decisions/012-customer-entry.md); web-app.ts routes them in production. */
const CUSTOMER_PATHS = /^\/(customer\/[^/]+\/[^/]+|preview|fileUpload)\/?(\?.*)?$/i;

/** The dev server's answer for the customer's paths, which would otherwise get index.html. */
function customerPage(): Plugin {
  return {
    name: 'easyform-customer-page',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        if (req.method === 'GET' && CUSTOMER_PATHS.test(req.url ?? '')) req.url = '/customer.html';
        next();
      });
    },
  };
}

const OWNER_ONLY = /src[\\/]web[\\/]api[\\/]session\.ts$/;

/** Every file the customer's entry loads, now or on use (lazy chunks and their CSS), as URL paths. */
function customerFiles(bundle: Rollup.OutputBundle): string[] {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
  const entry = chunks.find((c) => c.isEntry && c.name === 'customer');
  if (!entry) throw new Error('vite.config.ts: no customer entry chunk');
  const files = new Set<string>();
  const visit = (fileName: string) => {
    if (files.has(fileName)) return;
    files.add(fileName);
    const chunk = bundle[fileName];
    if (chunk?.type !== 'chunk') return;
    // api/client.ts loads the session only for owner calls: a customer never needs it offline.
    if (chunk.moduleIds.every((id) => OWNER_ONLY.test(id))) return files.delete(fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
    for (const next of [...chunk.imports, ...chunk.dynamicImports]) visit(next);
  };
  visit(entry.fileName);
  const favicon = existsSync('src/web/public/favicon.svg') ? ['favicon.svg'] : [];
  // /preview is customer.html as the server sends it, with the customer pages' headers: the offline shell.
  return ['preview', ...favicon, ...files].map((f) => `/${f}`);
}

/**
 * sw.js, the customer page's offline worker (docs/decisions/025-offline-customer-page.md): bundled on its own as one
 * classic script, because module workers are not everywhere yet and the page's chunks are split for the page, with
 * the list of the customer's files written into it. At the root with a fixed name, so its scope covers /preview.
 */
function serviceWorker(): Plugin {
  return {
    name: 'easyform-service-worker',
    apply: 'build',
    async writeBundle(_options, bundle) {
      const { build } = await import('rolldown');
      const file = join(outDir, 'sw.js');
      await build({
        input: fileURLToPath(new URL('src/web/fill/offline/service-worker.ts', import.meta.url)),
        output: { file, format: 'iife', minify: true },
        logLevel: 'warn',
      });
      const list = customerFiles(bundle).join(',');
      if (/[,'"\\]/.test(list.replaceAll(',/', '')))
        throw new Error(`sw.js: a file name it cannot hold: ${list}`);
      const code = readFileSync(file, 'utf8');
      if (!code.includes('__EASYFORM_PRECACHE__')) throw new Error('sw.js: no precache placeholder');
      writeFileSync(
        file,
        code.replace('__EASYFORM_PRECACHE__', () => list),
      );
    },
  };
}

const EMPTY_ROOT = '<div id="root"></div>';

/**
 * landing.html: index.html with '/' drawn in it, as a visitor without a session sees it, so the landing page paints
 * from the first response instead of after three script round trips
 * (docs/decisions/033-landing-page-drawn-at-build.md). The stylesheet and the chunks that draw it are named in its
 * head; the server inlines the stylesheets and starts the script, with those hints, at the first touch
 * (html-reply.ts).
 */
function landingPage(): Plugin {
  return {
    name: 'easyform-landing-page',
    apply: 'build',
    async writeBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
      const chunkOf = (module: RegExp) => {
        const chunk = chunks.find((c) => c.facadeModuleId !== null && module.test(c.facadeModuleId));
        if (!chunk) throw new Error(`vite.config.ts: no chunk for ${module}`);
        return chunk;
      };
      const screens = [chunkOf(/[\\/]home-route\.tsx$/), chunkOf(/[\\/]landing[\\/]landing-page\.tsx$/)];
      const index = readFileSync(join(outDir, 'index.html'), 'utf8');
      // The stylesheets of the screens and of every chunk they import (the site's header and footer are a chunk
      // the public pages share, with its own stylesheet): all in the first paint, none fetched at the take-over.
      const css = new Set<string>();
      const seen = new Set<string>();
      const collect = (chunk: Rollup.OutputChunk) => {
        if (seen.has(chunk.fileName)) return;
        seen.add(chunk.fileName);
        for (const file of chunk.viteMetadata?.importedCss ?? [])
          if (!index.includes(`/${file}"`)) css.add(file);
        for (const name of chunk.imports) {
          const imported = bundle[name];
          if (imported?.type === 'chunk') collect(imported);
        }
      };
      screens.forEach(collect);
      // Drawn by Vite's own SSR loader: it compiles the TSX and leaves the CSS imports to the build above.
      const server = await createServer({
        configFile: false,
        root: 'src/web',
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
      });
      let markup: string;
      let gate: string;
      try {
        const prerender = await server.ssrLoadModule('/prerender.tsx');
        markup = await prerender.renderHome();
        gate = prerender.SESSION_GATE_SCRIPT;
      } finally {
        await server.close();
      }
      if (!index.includes(EMPTY_ROOT) || !markup.includes('<h1'))
        throw new Error('landing.html: nothing drawn');
      const head = [
        `<script>${gate}</script>`,
        ...[...css].map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
        ...screens.map((c) => `<link rel="modulepreload" crossorigin href="/${c.fileName}">`),
      ].join('');
      writeFileSync(
        join(outDir, 'landing.html'),
        index
          .replace('</head>', () => `${head}</head>`)
          .replace(EMPTY_ROOT, () => `<div id="root">${markup}</div>`),
      );
    },
  };
}

const ENTRY_SCRIPT = /<script type="module" src="[^"]+"><\/script>/;

/**
 * customer.html holds only its entry script: the page around it is index.html's, so the head both pages share is
 * written once. A 'pre' hook, so Vite then reads the whole page as if it were on disk, in the build and the dev server.
 */
function customerShell(): Plugin {
  const indexHtml = fileURLToPath(new URL('src/web/index.html', import.meta.url));
  return {
    name: 'easyform-customer-shell',
    transformIndexHtml: {
      order: 'pre',
      handler(html, { filename }) {
        if (basename(filename) !== 'customer.html') return html;
        const entry = ENTRY_SCRIPT.exec(html)?.[0];
        if (!entry) throw new Error('customer.html has no entry script');
        return readFileSync(indexHtml, 'utf8').replace(ENTRY_SCRIPT, () => entry);
      },
    },
  };
}

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), customerShell(), serviceWorker(), landingPage(), precompress(), customerPage()],
  build: {
    outDir: `../../${outDir}`,
    emptyOutDir: true,
    sourcemap: true,
    // Every browser we serve preloads modules itself (Safari since 17); the polyfill cost each page 0.3 KiB gzip,
    // which the customer's budget now spends on the offline worker (docs/decisions/025-offline-customer-page.md).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // Absolute, because the build resolves inputs from the working directory and the dev server's scan from `root`.
      input: {
        main: fileURLToPath(new URL('src/web/index.html', import.meta.url)),
        customer: fileURLToPath(new URL('src/web/customer.html', import.meta.url)),
      },
      output: {
        codeSplitting: {
          // React in one chunk: split across the pieces two entries share, it compresses worse.
          groups: [
            // Vite's helper for dynamic imports, on its own: in `shared` it would make the customer's small entry
            // load React (shared's components import it) before the customer has touched the form (ADR 032).
            { name: 'preload-helper', test: /vite[\\/]preload-helper/ },
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            // The few small modules both entries use, as one chunk rather than one each.
            {
              name: 'shared',
              test: /src[\\/](web[\\/](customer-paths|api[\\/](client|error-body)|ui[\\/](brand-mark|message-card|linked-text)|zod-without-eval|fill[\\/]questions[\\/]questions)|common[\\/](answer-limits|contrast|form-colors|question-order|text-links))\.tsx?$/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': `http://127.0.0.1:${apiPort}`,
    },
  },
});
