/**
 * The demo building on first start (README quick start): with `DEMO` unset and an empty
 * database — or with `DEMO=1` and no demo company yet — creates the company of demo-data.ts with a
 * signed-up admin, a building in Munich whose Bavarian public holidays keep economy mode, a
 * Christmas closure in frost protection (the reception excepted), a booking calendar for the
 * meeting room served by the app itself (demo-bookings.ts), a device profile for the building's
 * Vickis that the simulated valves take within minutes (decision 0062), backfills 14 days of readings and setpoint history so graphs have data at
 * once and daily rollups of this and last heating season before them so reports have months to
 * compare (demo-season.ts), and then runs the device simulator against the app's MQTT broker while the server runs
 * (uplinks in ChirpStack JSON with the vendors' byte layouts, downlinks acknowledged, gateway
 * stats). Prints the demo login at every start while the demo company exists. `DEMO=0` turns
 * all of it off.
 */
import { FEED_SYNC_INTERVAL_MS } from '@heizplan/contracts/booking-feeds';
import { count, eq, sql } from 'drizzle-orm';
import { hashPassword } from '../auth/password.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import {
  bookingFeeds,
  buildings,
  closures,
  closureUnits,
  companies,
  deviceProfileAssignments,
  deviceProfiles,
  devices,
  gateways,
  groups,
  heatingPlans,
  identityAccounts,
  memberships,
  subscriptions,
  units,
  users,
} from '../db/schema.ts';
import { periodEnd } from '../modules/billing/manual-provider.ts';
import { BOOKINGS_AHEAD_MS, BOOKINGS_BACK_MS, parseBookings } from '../modules/booking-feeds/ics.ts';
import { storeBookings } from '../modules/booking-feeds/sync.ts';
import { evaluateUnits } from '../scheduling/heating-apply.ts';
import { DEMO_BOOKING_FEED, DEMO_BOOKING_UNIT, demoBookingsIcs } from './demo-bookings.ts';
import {
  DEMO_BUILDING,
  DEMO_CLOSURE_EXCEPTION,
  DEMO_COMPANY,
  DEMO_DEVICES,
  DEMO_GATEWAY,
  DEMO_GROUP,
  DEMO_LICENCES,
  DEMO_LOGIN,
  DEMO_PROFILE,
  DEMO_SWITCH_POINTS,
  DEMO_UNIT_FLOORS,
  DEMO_UNITS,
  demoChristmasClosure,
} from './demo-data.ts';
import { backfillDemoHistory } from './demo-history.ts';
import { backfillDemoSeason } from './demo-season.ts';

/**
 * The meeting room's booking feed on the app's own calendar (demo-bookings.ts), stored as if
 * fetched at `now`, so the room's bookings heat from the first minute; the sync job fetches it
 * from the running server from then on.
 */
async function seedDemoBookingFeed(
  tx: Db,
  companyId: string,
  unitId: string,
  createdBy: string,
  config: Config,
  now: Date,
) {
  const { path, ...settings } = DEMO_BOOKING_FEED;
  const id = crypto.randomUUID();
  const [feed] = await tx
    .insert(bookingFeeds)
    .values({
      id,
      companyId,
      unitId,
      ...settings,
      url: `${config.publicUrl}${path}`,
      createdBy,
      createdAt: now,
      updatedAt: now,
      nextSyncAt: new Date(now.getTime() + FEED_SYNC_INTERVAL_MS),
    })
    .returning();
  if (!feed) throw new Error('demo booking feed not created');
  const parsed = parseBookings(
    id,
    [demoBookingsIcs(now)],
    'Europe/Berlin',
    new Date(now.getTime() - BOOKINGS_BACK_MS),
    new Date(now.getTime() + BOOKINGS_AHEAD_MS),
  );
  await storeBookings(tx, feed, parsed, now);
}

export interface DemoCompany {
  companyId: string;
  /** True when this start created it. */
  created: boolean;
}

/** The demo company, if its admin account exists. */
async function findDemoCompany(db: Db): Promise<string | undefined> {
  const [row] = await db
    .select({ companyId: memberships.companyId })
    .from(identityAccounts)
    .innerJoin(memberships, eq(memberships.userId, identityAccounts.id))
    .where(sql`lower(${identityAccounts.email}) = ${DEMO_LOGIN.email}`)
    .limit(1);
  return row?.companyId;
}

/**
 * Finds or creates the demo company as `config.demo` says (see module doc); undefined when the
 * demo is off. Creation is one transaction, so a crash leaves no half-built demo.
 */
export async function ensureDemo(db: Db, config: Config, now = new Date()): Promise<DemoCompany | undefined> {
  if (config.demo === false) return undefined;
  const existing = await findDemoCompany(db);
  if (existing) return { companyId: existing, created: false };
  if (config.demo === undefined) {
    const [row] = await db.select({ n: count() }).from(companies);
    if (Number(row?.n ?? 0) > 0) return undefined;
  }
  const passwordHash = await hashPassword(DEMO_LOGIN.password);
  const companyId = await db.transaction(async (tx) => {
    const [account] = await tx
      .insert(identityAccounts)
      .values({
        id: crypto.randomUUID(),
        email: DEMO_LOGIN.email,
        name: DEMO_LOGIN.name,
        passwordHash,
        emailVerified: true,
      })
      .returning();
    if (!account) throw new Error('demo account not created');
    await tx.insert(users).values({
      id: account.id,
      name: DEMO_LOGIN.name,
      email: DEMO_LOGIN.email,
      emailVerified: true,
      lang: 'de',
    });
    const [company] = await tx
      .insert(companies)
      .values({
        name: DEMO_COMPANY,
        minTemperature: 12,
        maxTemperature: 26,
        avvAcceptedVersion: config.agreements.avv,
        licenseAcceptedVersion: config.agreements.license,
        privacyAcceptedVersion: config.agreements.privacy,
      })
      .returning();
    if (!company) throw new Error('demo company not created');
    await tx.insert(memberships).values({ companyId: company.id, userId: account.id, role: 'admin' });
    // An active yearly subscription of 12 licences (9 devices in use, 3 free).
    await tx.insert(subscriptions).values({
      companyId: company.id,
      provider: 'manual',
      interval: 'yearly',
      licences: DEMO_LICENCES,
      status: 'active',
      paymentMethod: 'invoice',
      currentPeriodStart: now,
      currentPeriodEnd: periodEnd(now, 'yearly'),
    });
    const [group] = await tx.insert(groups).values({ companyId: company.id, name: DEMO_GROUP }).returning();
    if (!group) throw new Error('demo group not created');
    await tx.insert(heatingPlans).values({
      companyId: company.id,
      groupId: group.id,
      name: 'Winter',
      kind: 'seasonal',
      validFrom: '10-01',
      validTo: '04-30',
      switchPoints: DEMO_SWITCH_POINTS,
    });
    const [building] = await tx
      .insert(buildings)
      .values({ companyId: company.id, createdBy: account.id, ...DEMO_BUILDING })
      .returning({ id: buildings.id });
    const unitRows = await tx
      .insert(units)
      .values(
        DEMO_UNITS.map((name, i) => ({
          companyId: company.id,
          name,
          groupId: group.id,
          buildingId: building?.id,
          floor: DEMO_UNIT_FLOORS[i] ?? null,
          createdBy: account.id,
          createdAt: new Date(now.getTime() - 15 * 86_400_000),
          ...(i === 3 ? { wallControlMin: 18, wallControlMax: 23 } : {}),
        })),
      )
      .returning({ id: units.id });
    await tx.insert(devices).values(
      DEMO_DEVICES.map((d) => ({
        id: d.devEui,
        devEui: d.devEui,
        companyId: company.id,
        model: d.model,
        unitId: unitRows[d.unit]?.id,
        createdBy: account.id,
      })),
    );
    const [profile] = await tx
      .insert(deviceProfiles)
      .values({ companyId: company.id, ...DEMO_PROFILE })
      .returning({ id: deviceProfiles.id });
    if (profile && building) {
      await tx.insert(deviceProfileAssignments).values({
        companyId: company.id,
        profileId: profile.id,
        model: DEMO_PROFILE.model,
        buildingId: building.id,
      });
    }
    await tx.insert(gateways).values({
      companyId: company.id,
      gatewayEui: DEMO_GATEWAY,
      name: 'Gateway Keller',
      createdBy: account.id,
      statsIntervalS: 60,
    });
    const [closure] = await tx
      .insert(closures)
      .values({ companyId: company.id, createdBy: account.id, ...demoChristmasClosure(now) })
      .returning({ id: closures.id });
    const exception = unitRows[DEMO_CLOSURE_EXCEPTION];
    if (closure && exception) {
      await tx.insert(closureUnits).values({ closureId: closure.id, unitId: exception.id, exception: true });
    }
    const meetingRoom = unitRows[DEMO_BOOKING_UNIT];
    if (meetingRoom) await seedDemoBookingFeed(tx, company.id, meetingRoom.id, account.id, config, now);
    await backfillDemoHistory(tx, company.id, now);
    await backfillDemoSeason(tx, company.id, now);
    await evaluateUnits(
      tx,
      company.id,
      unitRows.map((u) => u.id),
      now,
    );
    return company.id;
  });
  return { companyId, created: true };
}
