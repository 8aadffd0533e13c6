import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dev server proxies the API to the Fastify process that `npm run dev` starts beside it.
const apiPort = Number(process.env.API_PORT ?? 3001);

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    proxy: {
      '/api': `http://127.0.0.1:${apiPort}`,
    },
  },
});
