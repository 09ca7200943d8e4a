/**
 * Walks every operation of the OpenAPI document against the permission matrix (decision 0022):
 * for a stranger to the company (404) and each role without the operation's capability (403);
 * each role with it succeeds in `permission-success.test.ts`. A refused call must leave every table as it was. An operation the
 * matrix does not name, or a matrix entry no route has, fails the first test.
 */
import { can } from '@heizplan/contracts/permissions';
import { describe, expect, it } from 'vitest';
import { dataFingerprint } from '../http/api-walk.test-kit.ts';
import { PERMISSION_MATRIX } from './permission-matrix.ts';
import {
  allOperations,
  buildWorld,
  companyScoped,
  MEMBERS,
  prepare,
  send,
  useWalkApp,
  WALK_TIMEOUT_MS,
  walkApp,
} from './permission-walk.test-kit.ts';

useWalkApp();

describe('permission matrix', () => {
  it('names every operation of the OpenAPI document, and only those', () => {
    expect(allOperations().filter((op) => !(op in PERMISSION_MATRIX))).toEqual([]);
    expect(Object.keys(PERMISSION_MATRIX).filter((op) => !allOperations().includes(op))).toEqual([]);
  });

  it(
    'answers a stranger 404 and each role without the capability 403, changing nothing',
    async () => {
      const failures: string[] = [];
      const world = await buildWorld();
      for (const { operation, capability } of companyScoped()) {
        await prepare(operation, world);
        const before = await dataFingerprint(walkApp());
        const stranger = await send(operation, world, 'pm-stranger');
        if (stranger.statusCode !== 404) failures.push(`${operation} stranger → ${stranger.statusCode}`);
        for (const role of ['ems', 'heating', 'admin'] as const) {
          if (can(role, capability)) continue;
          const res = await send(operation, world, MEMBERS[role]);
          if (res.statusCode !== 403) failures.push(`${operation} ${role} → ${res.statusCode}`);
          else expect(res.json()).toMatchObject({ status: 403 });
        }
        const after = await dataFingerprint(walkApp());
        const changed = Object.keys(before).filter((table) => before[table] !== after[table]);
        if (changed.length > 0) failures.push(`${operation}: refused calls changed ${changed.join(', ')}`);
      }
      expect(failures).toEqual([]);
    },
    WALK_TIMEOUT_MS,
  );
});
