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
  /**
   * Optional: the scheduler is about to hand over a tick's commands batch by batch. A sink that
   * works on the scheduler's thread keeps taking commands but starts its own work only once every
   * hold is released, so the tick's batches (which hold row locks on their units) do not share
   * the thread and the database with it (decision 0073). Returns the release; call it exactly once.
   */
  hold?(): () => void;
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
