import { describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE } from '../testing/test-app.ts';
import { runAlone } from './run-alone.ts';

describe(`runAlone on ${TEST_ENGINE}`, () => {
  it('runs the work of one key in one caller at a time: a second caller meanwhile skips it', async () => {
    const t = await createTestApp();
    try {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const ran: string[] = [];
      const first = runAlone(t.app.db, 42, async () => {
        ran.push('first');
        await held;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const second = runAlone(t.app.db, 42, async () => void ran.push('second'));
      if (TEST_ENGINE === 'postgres') {
        // Another process (here another connection) finds the key taken and skips, without waiting.
        expect(await second).toBe(false);
        release();
        expect(await first).toBe(true);
        expect(ran).toEqual(['first']);
        // Once done, the key is free again.
        expect(await runAlone(t.app.db, 42, async () => void ran.push('third'))).toBe(true);
        expect(ran).toEqual(['first', 'third']);
      } else {
        // One process on the embedded engine: nothing to guard against.
        release();
        expect(await Promise.all([first, second])).toEqual([true, true]);
      }
    } finally {
      await t.close();
    }
  });
});
