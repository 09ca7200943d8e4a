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
import { CircuitOutputInputSchema } from '@heizplan/contracts/heating-circuits';
import { hashPassword } from '../auth/password.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { inputsChanged } from '../heating/inputs-changed.ts';
import { BOOKINGS_AHEAD_MS, BOOKINGS_BACK_MS, parseBookings } from '../modules/booking-feeds/ics.ts';
import { storeBookings } from '../modules/booking-feeds/sync.ts';
import {
  connectDemoCircuit,
  countCompanies,
  findCompanyOfAccount,
  insertBookingFeed,
  insertDemoCompany,
} from './demo.repository.ts';
import { DEMO_BOOKING_FEED, DEMO_BOOKING_UNIT, demoBookingsIcs } from './demo-bookings.ts';
import { DEMO_LOGIN } from './demo-data.ts';
import { DEMO_HEAT_PUMP_OUTPUT, type DemoHeatPump, startDemoHeatPump } from './demo-heat-pump.ts';
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
  const feed = await insertBookingFeed(tx, {
    id,
    companyId,
    unitId,
    ...settings,
    url: `${config.publicUrl}${path}`,
    createdBy,
    createdAt: now,
    updatedAt: now,
    nextSyncAt: new Date(now.getTime() + FEED_SYNC_INTERVAL_MS),
  });
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

/**
 * Finds or creates the demo company as `config.demo` says (see module doc); undefined when the
 * demo is off. Creation is one transaction, so a crash leaves no half-built demo.
 */
export async function ensureDemo(db: Db, config: Config, now = new Date()): Promise<DemoCompany | undefined> {
  if (config.demo === false) return undefined;
  // The demo company is the one its admin account belongs to.
  const existing = await findCompanyOfAccount(db, DEMO_LOGIN.email);
  if (existing) return { companyId: existing, created: false };
  if (config.demo === undefined && (await countCompanies(db)) > 0) return undefined;
  const passwordHash = await hashPassword(DEMO_LOGIN.password);
  const companyId = await db.transaction(async (tx) => {
    const { companyId, accountId, unitIds } = await insertDemoCompany(tx, passwordHash, config, now);
    const meetingRoom = unitIds[DEMO_BOOKING_UNIT];
    if (meetingRoom) await seedDemoBookingFeed(tx, companyId, meetingRoom, accountId, config, now);
    await backfillDemoHistory(tx, companyId, now);
    await backfillDemoSeason(tx, companyId, now);
    await inputsChanged(tx, { companyId, unitIds }, now, { evaluate: true });
    return companyId;
  });
  return { companyId, created: true };
}

/**
 * Starts the demo heat pump's Modbus stand-in and points the demo circuit at it, switching the
 * circuit on at the demo's first start (`connectDemoCircuit`). @returns the running stand-in, to be
 * closed at shutdown.
 * @throws when the loopback port cannot be opened.
 */
export async function runDemoHeatPump(db: Db, companyId: string, now: () => Date): Promise<DemoHeatPump> {
  const heatPump = await startDemoHeatPump(now);
  const output = CircuitOutputInputSchema.parse({ kind: 'modbus', ...DEMO_HEAT_PUMP_OUTPUT(heatPump.port) });
  if (output.kind === 'modbus') await connectDemoCircuit(db, companyId, output);
  return heatPump;
}
