// `npm run rotate-secrets`: new server keys and every session revoked, after a backup may have leaked or a restore
// brought back sessions logged out since (docs/operations.md, "Rotating the secrets").
import type { Database } from '../../db/database.ts';
import { newKey } from '../../http/crypto.ts';

/**
 * The keys a server keeps in `app_settings`: the one that signs file links, and those that key the digests of
 * client addresses (upload bounds, rate limits). Each is replaced; one not made yet is made by the next start.
 */
const KEYS = ['file_url_key', 'client_address_key', 'rate_limit_key'];

/**
 * What a holder of an old token could still use: sessions, trusted devices (a login without the mailed code) and
 * reset links. The rate-limit counts are kept under digests of the old key, meaningless under the new one.
 */
const REVOKED = ['sessions', 'trusted_devices', 'password_reset_codes', 'rate_limit_hits'] as const;

export async function rotateSecrets(
  db: Database,
): Promise<{ keys: number } & Record<(typeof REVOKED)[number], number>> {
  return db.transaction(async (tx) => {
    let keys = 0;
    for (const key of KEYS) {
      const changed = await tx.query<{ key: string }>(
        'update app_settings set value = $2 where key = $1 returning key',
        [key, newKey()],
      );
      keys += changed.length;
    }
    const revoked = {} as Record<(typeof REVOKED)[number], number>;
    for (const table of REVOKED) {
      const [row] = await tx.query<{ n: number }>(
        `with gone as (delete from ${table} returning 1) select count(*)::int as n from gone`,
      );
      revoked[table] = row?.n ?? 0;
    }
    return { keys, ...revoked };
  });
}
