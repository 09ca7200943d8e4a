/**
 * Port through which the scheduler hands applied setpoints to devices. The device
 * integration (LoRaWAN downlinks) implements it; until then `loggingSetpointSink` writes each
 * command to the log. A sink that throws makes the scheduler retry the same commands on its
 * next tick, so `send` must be safe to call again after a failure.
 */
import type { LogKind } from './engine/types.ts';

export interface SetpointCommand {
  companyId: string;
  unitId: string;
  deviceId: string;
  /** °C, already clamped to the company range. */
  setpoint: number;
  /** Limits an occupant may set on the device, °C; null = none configured. */
  wallControl?: { min: number | null; max: number | null } | null;
  /** True while the switch point in force overrides the wall control limits. */
  ignoreWallControl: boolean;
  /** Why the setpoint changed (the heating log kind). */
  reason: LogKind;
  /** When the change was applied (UTC). */
  at: Date;
}

export interface SetpointSink {
  send(commands: SetpointCommand[]): Promise<void>;
}

export interface InfoLogger {
  info(obj: object, msg: string): void;
}

/** Default sink until devices exist: one log line per command. */
export function loggingSetpointSink(log: InfoLogger): SetpointSink {
  return {
    async send(commands) {
      for (const command of commands) log.info({ command }, 'setpoint command');
    },
  };
}
