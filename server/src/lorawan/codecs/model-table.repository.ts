/**
 * The codec registry as SQL: `(model, report interval s, low battery V)` of every codec, as a
 * VALUES list aliased `m`, for statements that need a device's model defaults (the alerts'
 * offline and low-battery rules, the reconcile's lost-downlink rule).
 */
import { type SQL, sql } from 'drizzle-orm';
import { listCodecs } from './registry.ts';

/** `(values …) as m(model, interval_s, low_volts)`; join it `on m.model = d.model`. */
export function modelTable(): SQL {
  const rows = listCodecs().map(
    (c) => sql`(${c.model}::text, ${c.reportIntervalS}::int, ${c.lowBatteryVolts ?? null}::real)`,
  );
  return sql`(values ${sql.join(rows, sql`, `)}) as m(model, interval_s, low_volts)`;
}
