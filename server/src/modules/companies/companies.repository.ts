/**
 * Queries on companies and their memberships. Every query except `createCompanyWithAdmin`
 * is scoped by a company id the service has already checked with `requireMember`.
 */

import type {
  EnergyMedia,
  OptimumStartMode,
  RememberDeviceDays,
  SecondFactorPolicy,
} from '@heizplan/contracts/account';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { personMembership } from '../../auth/auth.repository.ts';
import type { Role } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import {
  companies,
  memberships,
  totpCredentials,
  userNotices,
  users,
  webauthnCredentials,
} from '../../db/schema.ts';

export type CompanyRow = typeof companies.$inferSelect;

/** Editable company columns (temperatures in °C). */
export interface CompanyChanges {
  name?: string;
  minTemperature?: number;
  maxTemperature?: number;
  timeZone?: string;
  occupantChangeMaxHours?: number | null;
  occupantMaxTemperature?: number;
  occupantBand?: number | null;
  inviteRoleChoice?: boolean;
  defaultInviteRole?: Role;
  energyMedia?: EnergyMedia | null;
  frostProtection?: number;
  economyTemperature?: number;
  standbyTemperature?: number;
  optimumStart?: OptimumStartMode;
  optimumMaxLeadMinutes?: number;
  secondFactorRequired?: SecondFactorPolicy;
  rememberDeviceDays?: RememberDeviceDays;
}

export interface MemberRow {
  id: string;
  name: string;
  email: string;
  role: Role;
}

const memberColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: memberships.role,
};

/** The user's companies ordered by name; `limit` undefined returns all. */
export async function listCompaniesForUser(db: Db, userId: string, page: { limit?: number; offset: number }) {
  const base = db
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .innerJoin(memberships, eq(memberships.companyId, companies.id))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(companies.name), asc(companies.id))
    .offset(page.offset);
  const rows = page.limit === undefined ? await base : await base.limit(page.limit);
  const [total] = await db.select({ n: count() }).from(memberships).where(eq(memberships.userId, userId));
  return { rows, count: total?.n ?? 0 };
}

export async function findCompany(db: Db, companyId: string): Promise<CompanyRow | undefined> {
  const [row] = await db.select().from(companies).where(eq(companies.id, companyId)).limit(1);
  return row;
}

export async function updateCompany(
  db: Db,
  companyId: string,
  changes: CompanyChanges,
): Promise<CompanyRow | undefined> {
  const [row] = await db.update(companies).set(changes).where(eq(companies.id, companyId)).returning();
  return row;
}

/** Creates the company and makes `userId` its admin in one transaction. */
export async function createCompanyWithAdmin(db: Db, name: string, userId: string): Promise<CompanyRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(companies).values({ name }).returning();
    if (!row) throw new Error('company insert returned no row');
    await tx.insert(memberships).values({ companyId: row.id, userId, role: 'admin' });
    return row;
  });
}

export interface MemberWithFactorsRow extends MemberRow {
  /** Whether a confirmed TOTP guards the member's sign-in. */
  totp: boolean;
  /** How many passkeys the member has. */
  passkeys: number;
}

/** The company's people, with their second factors for the team screen (decision 0078). */
export async function listMembers(db: Db, companyId: string): Promise<MemberWithFactorsRow[]> {
  return db
    .select({
      ...memberColumns,
      totp: sql<boolean>`exists (select 1 from ${totpCredentials}
        where ${totpCredentials.userId} = ${users.id} and ${totpCredentials.confirmedAt} is not null)`,
      passkeys: sql<number>`(select count(*) from ${webauthnCredentials}
        where ${webauthnCredentials.userId} = ${users.id})::int`,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.companyId, companyId), personMembership))
    .orderBy(asc(users.name), asc(users.id));
}

export async function findMember(db: Db, companyId: string, userId: string): Promise<MemberRow | undefined> {
  const [row] = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId), personMembership))
    .limit(1);
  return row;
}

/** A member's name, email and language for a mail about their account; undefined for a non-member. */
export async function findMemberContact(
  db: Db,
  companyId: string,
  userId: string,
): Promise<{ name: string; email: string; lang: 'de' | 'en' | null } | undefined> {
  const [row] = await db
    .select({ name: users.name, email: users.email, lang: users.lang })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId), personMembership))
    .limit(1);
  return row;
}

/**
 * Removes a membership unless it is the company's last admin; with `notify` the user finds a
 * `removed_from_company` notice naming the company on their next visit (not when they left).
 * @returns 'removed', 'not-member' or 'last-admin' (nothing changed for the last two).
 */
export async function removeMember(
  db: Db,
  companyId: string,
  userId: string,
  notify: boolean,
): Promise<'removed' | 'not-member' | 'last-admin'> {
  return changeMembership(db, companyId, userId, null, async (tx) => {
    await tx
      .delete(memberships)
      .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId)));
    if (notify) {
      const [company] = await tx
        .select({ name: companies.name })
        .from(companies)
        .where(eq(companies.id, companyId));
      if (company) {
        await tx
          .insert(userNotices)
          .values({ userId, kind: 'removed_from_company', companyName: company.name });
      }
    }
    return 'removed' as const;
  });
}

/**
 * Gives a member another role unless that demotes the company's last admin.
 * @returns the member as changed, or 'not-member' / 'last-admin' (nothing changed).
 */
export async function changeRole(
  db: Db,
  companyId: string,
  userId: string,
  role: Role,
): Promise<MemberRow | 'not-member' | 'last-admin'> {
  return changeMembership(db, companyId, userId, role, async (tx) => {
    await tx
      .update(memberships)
      .set({ role })
      .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId)));
    const [row] = await tx
      .select(memberColumns)
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId)));
    if (!row) throw new Error('membership vanished inside its transaction');
    return row;
  });
}

/**
 * Runs `change` on one membership in a transaction unless it would leave the company without
 * an admin (`newRole` null = the membership goes away). The company row is locked first, so
 * two admins demoting or removing each other at once cannot both succeed.
 */
async function changeMembership<T>(
  db: Db,
  companyId: string,
  userId: string,
  newRole: Role | null,
  change: (tx: Db) => Promise<T>,
): Promise<T | 'not-member' | 'last-admin'> {
  return db.transaction(async (tx) => {
    await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
    const [member] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId)));
    if (!member) return 'not-member';
    if (member.role === 'admin' && newRole !== 'admin') {
      const [admins] = await tx
        .select({ n: count() })
        .from(memberships)
        .where(and(eq(memberships.companyId, companyId), eq(memberships.role, 'admin')));
      if (Number(admins?.n ?? 0) <= 1) return 'last-admin';
    }
    return change(tx);
  });
}
