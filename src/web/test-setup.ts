import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// A console.error during a test is a bug (React warnings, failed props) unless the test says it expects one:
// a test opts in with `vi.mocked(console.error).mockImplementation(() => {})`, which replaces this recorder.
let consoleErrors: unknown[][] = [];
beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  vi.restoreAllMocks();
  if (consoleErrors.length > 0) throw new Error(`console.error was called: ${String(consoleErrors[0]?.[0])}`);
});
