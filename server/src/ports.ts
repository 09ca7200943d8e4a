/**
 * Ports whose implementation exists only once the server runs: the heating scheduler (woken
 * after a change queued setpoints) and the LoRaWAN side (read by readiness and `/metrics`). The
 * services and the app are built before either starts, so they receive a `LateBinding` that the
 * composition root binds once, before listening; until then the port answers "none".
 */
import type { DownlinkHealth, JobHealth } from '@heizplan/contracts/health';
import type { MqttSessions } from './lorawan/mqtt-sessions.ts';

/** A value bound once after construction. */
export interface LateBinding<T> {
  /** The bound value; undefined until `bind` (or where the server runs without it). */
  readonly current: T | undefined;
  /** @throws Error when already bound: the wiring happens once, at start. */
  bind(value: T): void;
}

/** `what` names the value in the error of a second `bind`. */
export function lateBinding<T>(what: string): LateBinding<T> {
  let value: T | undefined;
  return {
    get current() {
      return value;
    },
    bind(next) {
      if (value !== undefined) throw new Error(`${what} is already bound`);
      value = next;
    },
  };
}

/** What readiness and `/metrics` report of the LoRaWAN side. */
export interface LorawanState {
  readonly brokerConnected: boolean;
  readonly sessions: Pick<MqttSessions, 'state'>;
  /** Whether downlinks leave; undefined before the downlink queue first checked. */
  readonly downlinkHealth?: DownlinkHealth | undefined;
}

/** The background jobs as the HTTP app sees them (jobs/registry.ts). */
export interface JobsStatus {
  status(): JobHealth[];
}

/** The LoRaWAN side as the HTTP app sees it; `current` is undefined in an app without one. */
export interface LorawanStatus {
  readonly current: LorawanState | undefined;
}
