/**
 * What the reconcile sends (docs/decisions/0047, 0055, 0062, 0064): from each device's desired
 * state (desired-state.repository.ts), the setpoint commands it is missing — another value, a
 * failed or lost delivery, settings it still owes — and the bytes of its own settings and
 * profile configuration that ride behind a setpoint.
 */
import type { SetpointCommand } from '../heating/setpoint-sink.ts';
import { bytesToHex, CodecError, type DeviceCodec, deviceSetpoint } from './codecs/codec.ts';
import { getCodec } from './codecs/registry.ts';
import type { DesiredState, SettingsState } from './desired-state.repository.ts';
import { planConfig, SETPOINT_BYTES } from './device-config.ts';
import { desiredAntiFreeze, settingsCommands } from './device-settings.ts';

/**
 * The commands of `states` whose device (with a setpoint codec) last got another value or none,
 * each dated no older than what the device already has, or the queue would take it as stale.
 * A device whose last delivery of its setpoint failed or was lost gets it again, dated `now`
 * (`DesiredState.redeliver`). A device that holds its setpoint but still owes its own settings
 * (device-settings.ts) gets the setpoint again too, once its last downlink is settled: at once
 * when that downlink did not carry what is due now (the firmware answer came, the frost
 * protection is next), else after two of its report intervals without the answer. So settings
 * reach valves whose setpoint does not change for days.
 */
export function missingCommands(states: DesiredState[], now: Date, budgetMs: number): SetpointCommand[] {
  const missing: SetpointCommand[] = [];
  for (const state of states) {
    const { command, model, lastSetpoint, lastAppliedAt } = state;
    const codec = getCodec(model);
    if (!codec.setpoint) continue;
    const expected = deviceSetpoint(codec.setpoint, command.setpoint);
    if (lastSetpoint !== null && Math.abs(lastSetpoint - expected) < 1e-6) {
      if (state.redeliver || (state.own && owesSettings(codec, state.own, now, budgetMs)))
        missing.push({ ...command, at: now });
      continue;
    }
    const at = lastAppliedAt && lastAppliedAt.getTime() > command.at.getTime() ? lastAppliedAt : command.at;
    missing.push({ ...command, at });
  }
  return missing;
}

/**
 * The device's own settings due (device-settings.ts), then the configuration commands of its
 * profile that fit its airtime budget of `budgetMs` per day behind a setpoint of
 * `setpointBytes` (device-config.ts); none where the desired values do not encode.
 */
export function ownSettings(
  codec: DeviceCodec,
  device: Pick<SettingsState, 'settings' | 'frostProtection' | 'config'>,
  budgetMs: number,
  setpointBytes = SETPOINT_BYTES,
): { bytes: Uint8Array; recalibrate: boolean } {
  try {
    const own = settingsCommands(codec, device.settings, desiredAntiFreeze(device.frostProtection));
    const config = planConfig(codec, device.config, budgetMs, setpointBytes + own.length);
    return { bytes: Uint8Array.from([...own, ...config.bytes]), recalibrate: config.recalibrate };
  } catch (err) {
    if (err instanceof CodecError) return { bytes: new Uint8Array(), recalibrate: false };
    throw err;
  }
}

/** Whether a device holding its setpoint should be sent it again to carry its own settings. */
function owesSettings(codec: DeviceCodec, state: SettingsState, now: Date, budgetMs: number): boolean {
  if (state.lastState !== 'acknowledged' && state.lastState !== 'failed') return false;
  const due = bytesToHex(ownSettings(codec, state, budgetMs).bytes);
  if (due === '') return false;
  if (!state.lastPayload?.endsWith(due)) return true;
  const waited = now.getTime() - (state.lastUpdatedAt?.getTime() ?? 0);
  return waited >= 2 * codec.reportIntervalS * 1000;
}
