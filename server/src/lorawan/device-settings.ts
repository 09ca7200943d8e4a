/**
 * Settings a valve keeps by itself, sent along with its setpoints: the device's own frost
 * protection where the model and its firmware have one, so frost protection holds while the
 * network server is down, and the firmware query that tells whether it does. The
 * commands ride on setpoint downlinks (one confirmed downlink, no extra airtime for a frame of its
 * own) until the device's answer shows the settings in place, so a lost or superseded downlink
 * costs nothing but a repeat. Which model supports what: docs/decisions/0055.
 */
import type { AntiFreeze, DeviceCodec } from './codecs/codec.ts';

/** What Heizplan knows of a device's own settings, from its answers to earlier queries. */
export interface DeviceSettingsState {
  /** "major.minor"; null until the device answered the firmware query. */
  firmware: string | null;
  /** As the device last reported it; null before its first answer. */
  antiFreeze: AntiFreeze | null;
}

/** Whether a device runs frost protection of its own: by model and, once known, firmware. */
export type AntiFreezeSupport = 'supported' | 'firmware_too_old' | 'firmware_unknown' | 'none';

/**
 * The device's own frost protection for a company whose frost-protection setpoint is
 * `frostProtection` °C: it regulates to that setpoint (whole °C, at least 5 °C) once the room
 * falls 1 K below it, until the room is 2 K above it — the spacing of the Vicki's defaults
 * (6 / 9 / 7 °C).
 */
export function desiredAntiFreeze(frostProtection: number): AntiFreeze {
  const target = Math.max(5, Math.round(frostProtection));
  return { activation: target - 1, deactivation: target + 2, target };
}

/** "4.10" > "4.3": versions compare by number per part. */
export function atLeast(version: string, min: string): boolean {
  const [a = 0, b = 0] = version.split('.').map(Number);
  const [c = 0, d = 0] = min.split('.').map(Number);
  return a !== c ? a > c : b >= d;
}

export function antiFreezeSupport(codec: DeviceCodec, firmware: string | null): AntiFreezeSupport {
  if (!codec.antiFreeze) return 'none';
  if (firmware === null) return 'firmware_unknown';
  return atLeast(firmware, codec.antiFreeze.minFirmware) ? 'supported' : 'firmware_too_old';
}

const same = (a: AntiFreeze, b: AntiFreeze) =>
  Math.abs(a.activation - b.activation) < 0.05 &&
  Math.abs(a.deactivation - b.deactivation) < 0.05 &&
  a.target === b.target;

/**
 * Bytes to append to a setpoint downlink of `codec`'s model: the firmware query while the
 * firmware is unknown; the frost protection and its read-back while a supporting device does not
 * report `desired`. Empty when nothing is due.
 * @throws CodecError when `desired` is outside what the device takes.
 */
export function settingsCommands(
  codec: DeviceCodec,
  state: DeviceSettingsState,
  desired: AntiFreeze,
): Uint8Array {
  const support = antiFreezeSupport(codec, state.firmware);
  if (support === 'firmware_unknown' && codec.firmwareQuery) return codec.firmwareQuery;
  if (support !== 'supported' || !codec.antiFreeze) return new Uint8Array();
  if (state.antiFreeze && same(state.antiFreeze, desired)) return new Uint8Array();
  return Uint8Array.from([...codec.antiFreeze.encode(desired), ...codec.antiFreeze.query]);
}
