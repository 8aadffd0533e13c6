import { afterEach } from 'vitest';
import { takeCspViolations } from './browser.ts';

// A journey that ran into the Content-Security-Policy fails, however it otherwise ended (e2e/support/browser.ts).
afterEach(() => {
  const violations = takeCspViolations();
  if (violations.length > 0) {
    throw new Error(`Content-Security-Policy violations:\n${violations.map((v) => `- ${v}`).join('\n')}`);
  }
});
