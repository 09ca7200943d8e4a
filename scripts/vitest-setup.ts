/**
 * Tests fail on an unexpected console.error / console.warn (after epic-stack):
 * a warning nobody reads is a bug nobody fixes. A test that expects one spies on it first.
 */
import { afterEach, beforeEach, vi } from 'vitest';

let unexpected: string[] = [];

beforeEach(() => {
  unexpected = [];
  for (const level of ['error', 'warn'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      unexpected.push(`console.${level}: ${args.map(String).join(' ')}`);
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
  if (unexpected.length > 0) {
    const lines = unexpected;
    unexpected = [];
    throw new Error(`Unexpected console output:\n${lines.join('\n')}`);
  }
});
