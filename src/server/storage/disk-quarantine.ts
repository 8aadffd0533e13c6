import { randomBytes } from 'node:crypto';
import { opendir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirectory } from '../runtime/make-directory.ts';
import type { Storage } from './storage.ts';
import { MARKER_NAME, markerOf, PROBE_NAME, QUARANTINE_FOLDER } from './store-layout.ts';

const isMissing = (error: unknown) => (error as { code?: unknown } | null)?.code === 'ENOENT';

/**
 * The disk store's instance marker (`uploads/.easyform-instance`), quarantine (`uploads/quarantine/`) and readiness
 * probe (`uploads/.easyform-ready.<random>`, removed at once).
 */
export function diskMarkerAndQuarantine(
  dir: string,
  { pathOf, isKey }: { pathOf: (key: string) => string; isKey: (name: string) => boolean },
): Pick<Storage, 'readMarker' | 'writeMarker' | 'quarantine' | 'purgeQuarantine' | 'probe'> {
  const marker = join(dir, MARKER_NAME);
  const held = join(dir, QUARANTINE_FOLDER);
  return {
    async readMarker() {
      return readFile(marker, 'utf8').then(markerOf, (error: unknown) => {
        if (isMissing(error)) return null;
        throw error;
      });
    },
    async probe() {
      // Its own name each time: several processes on one machine (WORKERS) probe the same folder.
      const probe = join(dir, `${PROBE_NAME}.${randomBytes(6).toString('hex')}`);
      try {
        await writeFile(probe, 'ready\n');
      } finally {
        await rm(probe, { force: true });
      }
    },
    async writeMarker(id) {
      // Written whole or not at all: a crash mid-write must not leave a marker that matches nothing. Each write has
      // its own temporary name, so two at once (the start-up sweep and a restore's check) never take each other's.
      const written = `${marker}.${randomBytes(6).toString('hex')}`;
      await writeFile(written, `${id}\n`);
      await rename(written, marker);
    },
    async quarantine(key) {
      const from = pathOf(key);
      // Dated first, then moved: a crash in between leaves a young file in place, which a later pass moves again.
      const now = new Date();
      try {
        await utimes(from, now, now);
        await makeDirectory(held);
        await rename(from, join(held, key));
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    },
    async purgeQuarantine(cutoff) {
      let purged = 0;
      const entries = await opendir(held).catch((error: unknown) => {
        if (isMissing(error)) return [];
        throw error;
      });
      for await (const entry of entries) {
        if (!entry.isFile() || !isKey(entry.name)) continue;
        const path = join(held, entry.name);
        const moved = await stat(path).then(
          (s) => s.mtime,
          () => null,
        );
        if (moved && moved < cutoff) {
          await rm(path, { force: true });
          purged += 1;
        }
      }
      return purged;
    },
  };
}
