/**
 * The cheap alert checks on every ingested batch: called after the batch committed,
 * off the ingest's path, so a slow or failing evaluation never holds an uplink back. Per device,
 * its newest uplink of the batch decides:
 * - device faults (`Reading.errors`, one alert per code) and open windows — reported by the
 *   device, or inferred from a drop of ≥ 1.5 °C within 20 minutes while the valve heats;
 * - the onsets of the slow conditions (frost: room below FROST_CELSIUS; room not warming:
 *   setpoint > room + 2 °C with the valve ≥ 80 %; room far from the unit's setpoint), which the
 *   periodic evaluation turns into alerts once they lasted long enough;
 * - offline and low battery, which a fresh uplink may clear or open.
 */
import type { Db } from '../../db/client.ts';
import type { DecodedUplink } from '../../lorawan/ingest.ts';
import { evaluateLatestUplinks } from './alert-evaluation.repository.ts';

/** The newest decoded uplink of each device in the batch. */
function newestPerDevice(uplinks: DecodedUplink[]): DecodedUplink[] {
  const newest = new Map<string, DecodedUplink>();
  for (const uplink of uplinks) {
    if (!uplink.reading) continue;
    const seen = newest.get(uplink.device.id);
    if (!seen || seen.event.time < uplink.event.time) newest.set(uplink.device.id, uplink);
  }
  return [...newest.values()];
}

/** Evaluates the alert conditions the batch's uplinks decide, at `now`. */
export async function evaluateUplinks(db: Db, uplinks: DecodedUplink[], now = new Date()): Promise<void> {
  const latest = newestPerDevice(uplinks);
  if (latest.length === 0) return;
  await evaluateLatestUplinks(db, latest, now);
}

export interface UplinkAlerts {
  /** Hands a committed batch over; returns at once. */
  push(uplinks: DecodedUplink[]): void;
  /** Resolves once every batch handed over so far has been evaluated (tests, shutdown). */
  idle(): Promise<void>;
}

/**
 * Evaluates committed batches one evaluation at a time; batches arriving meanwhile are merged
 * into the next one, so a burst of uplinks costs a few evaluations, not one per batch. A failed
 * evaluation is logged; the periodic evaluation catches up.
 */
export function uplinkAlerts(db: Db, log: { error(obj: object, msg: string): void }): UplinkAlerts {
  let waiting: DecodedUplink[] = [];
  let running: Promise<void> | null = null;
  const run = async () => {
    while (waiting.length > 0) {
      const next = waiting;
      waiting = [];
      try {
        await evaluateUplinks(db, next);
      } catch (err) {
        log.error({ err, uplinks: next.length }, 'alert evaluation of uplinks failed');
      }
    }
    running = null;
  };
  return {
    push(uplinks) {
      waiting.push(...uplinks);
      running ??= run();
    },
    async idle() {
      while (running !== null) await running;
    },
  };
}
