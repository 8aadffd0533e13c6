import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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
  plugins: [react(), customerShell(), precompress(), customerPage()],
  build: {
    outDir: `../../${outDir}`,
    emptyOutDir: true,
    sourcemap: true,
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
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            // The few small modules both entries use, as one chunk rather than one each.
            {
              name: 'shared',
              test: /src[\\/](web[\\/](customer-paths|api[\\/](client|session|error-body)|ui[\\/](brand-mark|message-card))|common[\\/](answer-limits|contrast))\.tsx?$/,
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
