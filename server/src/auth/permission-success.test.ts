/**
 * The permission walk's second half (decision 0022): each role with an operation's capability
 * calls it and gets a 2xx. Beside the refusal walk in `permission-matrix.test.ts`; with
 * PostgreSQL available it runs there only (vitest.config.ts), since what it proves — the matrix
 * lets a role through — does not depend on the driver.
 *
 * Reading calls share one world. Changing calls run one after another on a second, rolling world
 * as long as it serves them: a call that the rolling world can no longer serve (its unit was
 * deleted by an earlier call, its QR code already exists) is made again on a fresh world, which
 * then rolls on. A 2xx on any world shows the role was let through, and a refusal would repeat on
 * the fresh world, so the walk proves what it proved with a fresh world per call, with about a
 * fifth of the worlds (decision 0065). Calls that change members or the company itself retire the
 * rolling world, so no later call runs as a member whose role an earlier call changed.
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

type World = Awaited<ReturnType<typeof buildWorld>>;

/** Calls on members, invitations, licences or the company itself: the rolling world ends after them. */
const CHANGES_MEMBERS =
  /\/members\b|\/invite\b|\/licenses\/|^(PATCH|DELETE) \/api\/companies\/\{(id|companyId)\}\/$/;

describe('permission matrix', () => {
  it(
    'lets each role with the capability call the operation',
    async () => {
      const failures: string[] = [];
      const readingWorld = await buildWorld();
      let rolling: World | undefined;
      for (const { operation, capability } of companyScoped()) {
        for (const role of ['ems', 'heating', 'admin'] as const) {
          if (!can(role, capability)) continue;
          const reads = operation.startsWith('GET ') || SHARES_WORLD.has(operation);
          const call = async (world: World) => {
            await prepare(operation, world);
            return send(operation, world, MEMBERS[role]);
          };
          if (!reads && !rolling) rolling = await buildWorld();
          let res = await call(reads ? readingWorld : (rolling as World));
          if (res.statusCode >= 300 && !reads) {
            rolling = await buildWorld();
            res = await call(rolling);
          }
          if (res.statusCode >= 300) failures.push(`${operation} ${role} → ${res.statusCode} ${res.body}`);
          if (CHANGES_MEMBERS.test(operation)) rolling = undefined;
        }
      }
      expect(failures).toEqual([]);
    },
    WALK_TIMEOUT_MS,
  );
});
