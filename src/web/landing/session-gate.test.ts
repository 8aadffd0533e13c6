import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { readSession } from '../api/session.ts';
import { SESSION_CLASS, SESSION_GATE_SCRIPT } from './session-gate.ts';

afterEach(() => {
  localStorage.clear();
  document.documentElement.classList.remove(SESSION_CLASS);
});

describe("'/''s session gate", () => {
  it('marks the page exactly when readSession() finds a session, whatever the storage holds', () => {
    const value = fc.option(fc.oneof(fc.constant(''), fc.string(), fc.uuid()), { nil: undefined });
    fc.assert(
      fc.property(fc.record({ easyId: value, id: value, token: value, myProfile: value }), (stored) => {
        localStorage.clear();
        document.documentElement.classList.remove(SESSION_CLASS);
        for (const [key, v] of Object.entries(stored)) if (v !== undefined) localStorage.setItem(key, v);
        // The text the page's head runs, as the browser runs it.
        new Function(SESSION_GATE_SCRIPT)();
        expect(document.documentElement.classList.contains(SESSION_CLASS)).toBe(readSession() !== null);
      }),
    );
  });

  it('leaves the page as it is where storage cannot be read', () => {
    const storage = Object.getOwnPropertyDescriptor(window, 'localStorage');
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException('blocked', 'SecurityError');
      },
    });
    try {
      expect(() => new Function(SESSION_GATE_SCRIPT)()).not.toThrow();
      expect(document.documentElement.classList.contains(SESSION_CLASS)).toBe(false);
    } finally {
      if (storage) Object.defineProperty(window, 'localStorage', storage);
    }
  });
});
