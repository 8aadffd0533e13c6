import type { Database } from '../db/database.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Config } from '../runtime/config.ts';
import type { Storage } from '../storage/storage.ts';

/** The signed-in account, set by the owner-routes auth hook. */
export type Owner = { id: string; email: string; fullName: string; tokenHash: string };

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    mailer: Mailer;
    storage: Storage;
    /** Stops the server looking healthy (GET /api/health answers 503) while it still serves: the start of a shutdown. */
    beginDrain(): void;
  }
  interface FastifyRequest {
    owner: Owner | null;
  }
}
