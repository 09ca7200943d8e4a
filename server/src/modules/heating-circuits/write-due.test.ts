/** The write rule of decision 0077, with the LoRaWAN relay's exception (no watchdog). */
import { describe, expect, it } from 'vitest';
import { CIRCUIT_OVERRIDE_PAUSE_MS, CIRCUIT_REWRITE_MS, writeDue } from './heating-circuits.service.ts';

const at = new Date('2027-01-12T05:00:00Z');
const later = (ms: number) => new Date(at.getTime() + ms);
const last = { at, ok: true, override: false, enabled: true, supplySetpoint: 55 };

describe('writeDue', () => {
  it('rewrites an unchanged command to Modbus or MQTT after 15 minutes (the watchdog)', () => {
    expect(writeDue(last, { enabled: true, supplySetpoint: 55 }, later(CIRCUIT_REWRITE_MS - 1), false)).toBe(
      false,
    );
    expect(writeDue(last, { enabled: true, supplySetpoint: 55 }, later(CIRCUIT_REWRITE_MS), false)).toBe(
      true,
    );
  });

  it('writes a relay only when the enable changes or its last command was not delivered', () => {
    const relay = { undelivered: false };
    const day = 24 * 60 * 60_000;
    expect(writeDue(last, { enabled: true, supplySetpoint: 55 }, later(day), false, relay)).toBe(false);
    // The setpoint is not sent to a relay: its change is no reason for a downlink.
    expect(writeDue(last, { enabled: true, supplySetpoint: 60 }, later(5 * 60_000), false, relay)).toBe(
      false,
    );
    expect(writeDue(last, { enabled: false, supplySetpoint: null }, later(5 * 60_000), false, relay)).toBe(
      true,
    );
    expect(
      writeDue(last, { enabled: true, supplySetpoint: 55 }, later(5 * 60_000), false, { undelivered: true }),
    ).toBe(true);
    expect(
      writeDue({ ...last, ok: false }, { enabled: true, supplySetpoint: 55 }, later(1), false, relay),
    ).toBe(true);
  });

  it('leaves a relay alone for an hour after an override, then writes it again', () => {
    const relay = { undelivered: false };
    const seen = { ...last, override: true };
    const command = { enabled: true, supplySetpoint: 55 };
    expect(writeDue(seen, command, later(CIRCUIT_OVERRIDE_PAUSE_MS - 1), false, relay)).toBe(false);
    expect(writeDue(seen, command, later(CIRCUIT_OVERRIDE_PAUSE_MS), false, relay)).toBe(true);
  });
});
