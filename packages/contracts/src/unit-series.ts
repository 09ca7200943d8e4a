/**
 * A unit's graph data: `GET /api/companies/{companyId}/units/{unitId}/series?range=48h|14d`.
 * Readings are bucketed on the server (`date_bin`) so a range returns at most MAX_SERIES_POINTS
 * buckets; each bucket holds the average (and for room temperature min and max) over the unit's
 * devices. The setpoint comes from the heating log as exact steps: the value in force at `from`,
 * then every change. Temperatures °C, valve opening %, instants ISO-8601 UTC. Arrays in
 * `buckets` are parallel (one entry per bucket with data); null = no such reading in the bucket.
 */
import { z } from 'zod';

export const MAX_SERIES_POINTS = 1000;
export const SERIES_RANGES = { '48h': 48 * 3_600_000, '14d': 14 * 86_400_000 } as const;
export const SeriesRangeSchema = z.enum(['48h', '14d']);
export type SeriesRange = z.infer<typeof SeriesRangeSchema>;

export const SeriesQuerySchema = z.object({ range: SeriesRangeSchema.default('48h') });

const values = z.array(z.number().nullable());

export const UnitSeriesSchema = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  /** Width of a bucket in seconds. */
  bucketSeconds: z.number().int(),
  /** IANA time zone of the company, for the time axis. */
  timeZone: z.string(),
  buckets: z.object({
    /** Bucket starts. */
    time: z.array(z.iso.datetime()),
    roomAvg: values,
    roomMin: values,
    roomMax: values,
    supplyAvg: values,
    valveAvg: values,
  }),
  setpoint: z.array(z.object({ at: z.iso.datetime(), setpoint: z.number() })),
});
export type UnitSeries = z.infer<typeof UnitSeriesSchema>;
