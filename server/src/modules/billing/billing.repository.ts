/**
 * Queries on subscriptions, invoices and processed provider events. Every function
 * takes the company id it works on, except the lookups by a provider's own ids (webhooks).
 * Functions take a `Db` so services can run them inside their transactions.
 */
import type { BillingAddress } from '@heizplan/contracts/billing';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  billingEvents,
  companies,
  devices,
  invoices,
  memberships,
  subscriptions,
  unitQrCodes,
  units,
  users,
} from '../../db/schema.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoice = Omit<typeof invoices.$inferInsert, 'id' | 'number'>;

export async function findSubscription(db: Db, companyId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.companyId, companyId));
  return row;
}

/** Locks the company's subscription row (or nothing, without one) until the transaction ends. */
export async function lockSubscription(db: Db, companyId: string): Promise<SubscriptionRow | undefined> {
  await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
  return findSubscription(db, companyId);
}

export async function findSubscriptionByProviderId(db: Db, providerSubscriptionId: string) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId));
  return row;
}

export async function insertSubscription(
  db: Db,
  row: typeof subscriptions.$inferInsert,
): Promise<SubscriptionRow> {
  const [created] = await db.insert(subscriptions).values(row).returning();
  if (!created) throw new Error('subscription insert returned no row');
  return created;
}

/** Creates or replaces the company's subscription (a new checkout after a cancelled one). */
export async function upsertSubscription(
  db: Db,
  row: typeof subscriptions.$inferInsert,
): Promise<SubscriptionRow> {
  const { companyId: _, createdAt: __, ...changes } = row;
  const [saved] = await db
    .insert(subscriptions)
    .values(row)
    .onConflictDoUpdate({ target: subscriptions.companyId, set: { ...changes, updatedAt: new Date() } })
    .returning();
  if (!saved) throw new Error('subscription upsert returned no row');
  return saved;
}

export async function updateSubscription(
  db: Db,
  companyId: string,
  changes: Partial<Omit<typeof subscriptions.$inferInsert, 'companyId'>>,
): Promise<SubscriptionRow> {
  const [row] = await db
    .update(subscriptions)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(subscriptions.companyId, companyId))
    .returning();
  if (!row) throw new Error(`no subscription for company ${companyId}`);
  return row;
}

/** Subscriptions of the manual provider whose period ended at `now` (renewal job), locked, skipping locked ones. */
export async function dueManualSubscriptions(db: Db, now: Date, limit: number): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, 'manual'),
        sql`${subscriptions.status} <> 'cancelled'`,
        sql`${subscriptions.currentPeriodEnd} <= ${now.toISOString()}`,
      ),
    )
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function countDevices(db: Db, companyId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(devices).where(eq(devices.companyId, companyId));
  return Number(row?.n ?? 0);
}

/** Enabled QR codes of the company: each takes a licence, like a device. */
export async function countQrCodes(db: Db, companyId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(unitQrCodes).where(eq(unitQrCodes.companyId, companyId));
  return Number(row?.n ?? 0);
}

export async function countUnits(db: Db, companyId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(units).where(eq(units.companyId, companyId));
  return Number(row?.n ?? 0);
}

/** Inserts an invoice with the next number `HP-<year of issue>-<000001>`. */
export async function insertInvoice(db: Db, invoice: NewInvoice): Promise<InvoiceRow> {
  const year = invoice.issuedAt.getUTCFullYear();
  const [row] = await db
    .insert(invoices)
    .values({
      ...invoice,
      number: sql`${`HP-${year}-`} || lpad(nextval('invoice_number_seq')::text, 6, '0')`,
    })
    .returning();
  if (!row) throw new Error('invoice insert returned no row');
  return row;
}

export async function listInvoices(db: Db, companyId: string): Promise<InvoiceRow[]> {
  return db
    .select()
    .from(invoices)
    .where(eq(invoices.companyId, companyId))
    .orderBy(desc(invoices.issuedAt), desc(invoices.number));
}

export async function findInvoice(
  db: Db,
  companyId: string,
  invoiceId: string,
): Promise<InvoiceRow | undefined> {
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.companyId, companyId), eq(invoices.id, invoiceId)));
  return row;
}

/** Marks the company's open invoices paid at `at`; @returns how many. */
export async function markInvoicesPaid(db: Db, companyId: string, at: Date): Promise<number> {
  const rows = await db
    .update(invoices)
    .set({ status: 'paid', paidAt: at })
    .where(and(eq(invoices.companyId, companyId), eq(invoices.status, 'open')))
    .returning({ id: invoices.id });
  return rows.length;
}

/** Records a provider event id; @returns false when it was recorded before (a replay). */
export async function recordEvent(db: Db, id: string, type: string): Promise<boolean> {
  const rows = await db
    .insert(billingEvents)
    .values({ id, type })
    .onConflictDoNothing()
    .returning({ id: billingEvents.id });
  return rows.length > 0;
}

const billingColumns = {
  name: companies.billingName,
  street: companies.billingStreet,
  postcode: companies.billingPostcode,
  city: companies.billingCity,
  country: companies.billingCountry,
  vatId: companies.billingVatId,
};

type BillingColumns = { [K in keyof typeof billingColumns]: string | null };

/** The kept address, or null unless every required part is there. */
function addressOf(row: BillingColumns): BillingAddress | null {
  const { name, street, postcode, city, country, vatId } = row;
  if (!name || !street || !postcode || !city || !country) return null;
  return { name, street, postcode, city, country, vatId };
}

/** The company's billing address; null while none is kept (or the company does not exist). */
export async function findBillingAddress(db: Db, companyId: string): Promise<BillingAddress | null> {
  const [row] = await db.select(billingColumns).from(companies).where(eq(companies.id, companyId));
  return row ? addressOf(row) : null;
}

/** Keeps `address` as the company's billing address. */
export async function saveBillingAddress(db: Db, companyId: string, address: BillingAddress): Promise<void> {
  await db
    .update(companies)
    .set({
      billingName: address.name,
      billingStreet: address.street,
      billingPostcode: address.postcode,
      billingCity: address.city,
      billingCountry: address.country,
      billingVatId: address.vatId,
    })
    .where(eq(companies.id, companyId));
}

/**
 * Name and billing address of the company and the address its billing mail goes to: `userId`'s
 * when given (the admin acting), else the first admin's by name.
 */
export async function findBuyer(
  db: Db,
  companyId: string,
  userId?: string,
): Promise<{ companyName: string; email: string; address: BillingAddress | null } | undefined> {
  const [row] = await db
    .select({ companyName: companies.name, email: users.email, ...billingColumns })
    .from(companies)
    .innerJoin(memberships, eq(memberships.companyId, companies.id))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(companies.id, companyId),
        userId ? eq(memberships.userId, userId) : eq(memberships.role, 'admin'),
      ),
    )
    .orderBy(asc(users.name))
    .limit(1);
  return row && { companyName: row.companyName, email: row.email, address: addressOf(row) };
}

/** Companies where `userId` is the only admin (their subscription ends with the account). */
export async function companiesWithSoleAdmin(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ companyId: memberships.companyId })
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.role, 'admin'),
        sql`(select count(*) from ${memberships} m where m.company_id = ${memberships.companyId} and m.role = 'admin') = 1`,
      ),
    );
  return rows.map((row) => row.companyId);
}

/** Companies whose id is `idOrName`, or whose name is it ignoring case (the operator's lookup). */
export async function findCompaniesByIdOrName(
  db: Db,
  idOrName: string,
): Promise<{ id: string; name: string }[]> {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  return db
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(
      UUID.test(idOrName) ? eq(companies.id, idOrName) : sql`lower(${companies.name}) = lower(${idOrName})`,
    )
    .orderBy(asc(companies.id));
}

/** The language a member with this e-mail address chose; German (the default) for anyone else. */
export async function recipientLanguage(db: Db, email: string): Promise<'de' | 'en'> {
  const [row] = await db
    .select({ lang: users.lang })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return row?.lang === 'en' ? 'en' : 'de';
}
