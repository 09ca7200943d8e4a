/**
 * The outputs that carry a heating circuit's command to its heat generator (boiler, heat pump):
 * Modbus TCP (`modbus.ts`), MQTT for a building management system (`mqtt-bms.ts`) and a LoRaWAN
 * relay controller (`dragino-lt22222.ts`), decision 0075. Each adapter is self-contained: it is
 * given its configuration, a clock and its transport, and never imports the feature modules, so
 * the circuits service can later pick one per circuit without the adapters knowing about circuits'
 * storage. Temperatures °C.
 */

/** What a circuit asks of its heat generator. */
export interface GeneratorCommand {
  circuitId: string;
  enabled: boolean;
  /** °C; null while the generator is off or no setpoint is known (only the enable is written). */
  supplySetpoint: number | null;
}

/** The result of one write, to be recorded with its value. */
export interface WriteResult {
  /** Whether the peer took the write; false on a refused connection, a timeout or an error reply. */
  ok: boolean;
  /** When the write was started, from the adapter's clock. */
  at: Date;
  /** One line for the record and the operator: what was written, or what failed and where. */
  detail: string;
  /**
   * What the generator reports after the write, where the adapter reads it back. When it differs
   * from what was written, someone overrode the generator by hand: the detail says so, the write
   * stays `ok` (it was taken), and the caller decides what to do about the override.
   */
  readBack?: { enabled?: boolean; supplySetpoint?: number };
  /** True when the read-back differs from what was written: someone changed the generator by hand. */
  override?: boolean;
}

/** One heat generator's output. `write` never throws: every failure is a `WriteResult` with `ok: false`. */
export interface GeneratorOutput {
  write(command: GeneratorCommand): Promise<WriteResult>;
  /** Releases connections; a `write` after it answers `ok: false`. */
  close(): Promise<void>;
}

/**
 * The message of anything thrown or rejected, for a `detail`: an `Error`'s, or the `message` of an
 * error-like object (modbus-serial rejects with plain objects, e.g. `{ name, message, errno }`).
 */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'object' && error !== null) {
    const { message, name } = error as { message?: unknown; name?: unknown };
    if (typeof message === 'string' && message !== '') return message;
    if (typeof name === 'string' && name !== '') return name;
  }
  return String(error);
}
