/**
 * Dragino LT-22222-L LoRaWAN I/O controller as a device of the company: the relay a heating
 * circuit switches its heat generator with (decision 0077, "Relay output wired"). It takes no
 * setpoint, so the scheduler and the reconcile never send it one; its relay downlinks come from
 * the circuit's output (`generators/dragino-lt22222.ts`) through `DownlinkQueue.queueRaw`.
 *
 * Source: Dragino, "LT-22222-L — LoRa I/O Controller User Manual": the uplink of work mode MOD1
 * on fPort 2 (11 bytes, the relays in bits 7 and 6 of byte 8, 1 = closed), decoded by
 * `decodeLt22222Uplink`; other ports and modes without relay state decode to an empty reading.
 * The device is mains powered (9–24 V DC), so it reports no battery.
 */
import { decodeLt22222Uplink, UPLINK_PORT } from '../../generators/dragino-lt22222.ts';
import { bytesToHex, CodecError, type DeviceCodec, type Frame, type Reading, unsupported } from './codec.ts';

const MODEL = 'dragino-lt22222';

/** MOD1's mode byte: hardware bits 6–7 = 1 (LT-22222-L), work mode 1 in bits 0–5. */
const MOD1_LT22222 = 0x41;

function decodeUplink(fPort: number, bytes: Uint8Array): Reading {
  if (fPort < 1 || fPort > 223) throw new CodecError(MODEL, `fPort ${fPort} is not an application port.`);
  const status = decodeLt22222Uplink(fPort, bytesToHex(bytes));
  if (status === null || status.ro1Closed === null || status.ro2Closed === null) return { errors: [] };
  return { errors: [], relays: { ro1Closed: status.ro1Closed, ro2Closed: status.ro2Closed } };
}

/** A MOD1 uplink with the relays of `reading` and the analog inputs at 0 (the simulator's device side). */
function encodeUplink(reading: Reading): Frame {
  if (!reading.relays) throw new CodecError(MODEL, 'nothing to report: the reading has no relay state.');
  const bytes = new Uint8Array(11);
  bytes[8] = (reading.relays.ro1Closed ? 0x80 : 0) | (reading.relays.ro2Closed ? 0x40 : 0);
  bytes[10] = MOD1_LT22222;
  return { fPort: UPLINK_PORT, bytes };
}

export const draginoLt22222: DeviceCodec = {
  model: MODEL,
  vendor: 'Dragino',
  name: 'LT-22222-L',
  kind: 'relay',
  // The periodic uplink this project expects (the device's AT+TDC sets it); the offline alert uses it.
  reportIntervalS: 600,
  decodeUplink,
  encodeUplink,
  encodeSetpoint: () => unsupported(MODEL, 'a setpoint (it is a relay controller)'),
  encodeLimits: () => unsupported(MODEL, 'wall-control limits'),
  // The relay downlink is built and read back by the circuit's output (generators/dragino-lt22222.ts).
  decodeDownlink: () => unsupported(MODEL, 'setpoint downlinks'),
};
