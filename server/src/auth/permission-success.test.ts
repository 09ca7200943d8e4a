/**
 * The permission walk's second half (decision 0022): each role with an operation's capability
 * calls it and gets a 2xx, on a fresh world for each changing call. Beside the refusal walk in
 * `permission-matrix.test.ts`; with PostgreSQL available it runs there only (vitest.config.ts),
 * since what it proves — the matrix lets a role through — does not depend on the driver.
 */
import { can } from '@heizplan/contracts/permissions';
import { describe, expect, it } from 'vitest';
import {
  buildWorld,
  companyScoped,
  MEMBERS,
  prepare,
  SHARES_WORLD,
  send,
  useWalkApp,
  WALK_TIMEOUT_MS,
} from './permission-walk.test-kit.ts';

useWalkApp();

describe('permission matrix', () => {
  it(
    'lets each role with the capability call the operation',
    async () => {
      const failures: string[] = [];
      const readingWorld = await buildWorld();
      for (const { operation, capability } of companyScoped()) {
        for (const role of ['ems', 'heating', 'admin'] as const) {
          if (!can(role, capability)) continue;
          const world =
            operation.startsWith('GET ') || SHARES_WORLD.has(operation) ? readingWorld : await buildWorld();
          await prepare(operation, world);
          const res = await send(operation, world, MEMBERS[role]);
          if (res.statusCode >= 300) failures.push(`${operation} ${role} → ${res.statusCode} ${res.body}`);
        }
      }
      expect(failures).toEqual([]);
    },
    WALK_TIMEOUT_MS,
  );
});
