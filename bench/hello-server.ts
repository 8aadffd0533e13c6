// The baseline: a bare Fastify hello-world route in its own process, as fastify's own benchmarks run it.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.argv[2] ?? 0), host: '127.0.0.1' });
console.log('listening');
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close());
