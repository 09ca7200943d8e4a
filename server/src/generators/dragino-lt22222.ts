/**
 * The Dragino LT-22222-L LoRaWAN I/O controller as a heat generator's demand output (decision
 * 0075): its relay RO1 releases the burner or heat pump, RO2 optionally switches along or the
 * other way. A pure codec plus an adapter that hands the downlink to a `sendDownlink` function.
 *
 * Source: Dragino, "LT-22222-L — LoRa I/O Controller User Manual" (wiki.dragino.com, which also
 * covers the LT-33222-L), and its predecessor "LT Series LoRa IO Controller User Manual" v1.5.7:
 * - Hardware variants: 2 digital inputs, 2 digital outputs, 2 relay outputs, 2 × 0–30 V and
 *   2 × 0–20 mA analog inputs. There is no analog output, so no 0–10 V supply setpoint can be
 *   sent through this device: the adapter switches the generator on and off only, and the
 *   generator keeps its own heating curve.
 * - Downlink "Control Relay Output RO1/RO2", type code 0x03: `03 aa bb`, `aa` for RO1 and `bb`
 *   for RO2, `01` close, `00` open, `11` no action (e.g. `03 01 00`: RO1 closed, RO2 open). The
 *   device sends an uplink after it carried out the command. The manual names no port for
 *   downlinks; the port is configurable (default 1).
 * - Uplink, work mode MOD1 "2ACI+2AVI" (the default), fPort 2, 11 bytes: AVI1, AVI2 (mV), ACI1,
 *   ACI2 (µA), each 16 bits big-endian signed, then the DIDORO byte — bit 7 RO1, 6 RO2, 5 DI3,
 *   4 DI2, 3 DI1, 2 DO3, 1 DO2, 0 DO1; ROx 1 = closed; DIx 1 = high or floating; DOx 1 = output
 *   low (reversed) — DI3 and DO3 are not valid on the LT-22222-L; byte 9 is reserved, byte 10
 *   holds the work mode in bits 0–5 and the hardware in bits 6–7 (`0` LT-33222-L, `1`
 *   LT-22222-L, as The Things Network's device repository codec `vendor/dragino/lt22222-l.js`
 *   decodes it). In MOD2–MOD5 the relays keep their bits and bit 5 flags the first uplink after
 *   a join; the digital inputs are counted instead, so only MOD1 reports them here. MOD6 (trigger
 *   flags) carries no relay state.
 *
 * The manual's worked example (`04 AB 04 AC 13 10 13 00 AA FF 01`) describes the inputs of an
 * LT-22222-L in a way that contradicts its own bit table; this codec follows the table, as the
 * vendor's codec in The Things Network's repository does.
 */
import {
  type LoraRelayOutputConfig,
  type LoraRelayOutputConfigInput,
  LoraRelayOutputConfigSchema,
} from '@heizplan/contracts/generator-outputs';
import type { Clock } from '../clock.ts';
import { errorText, type GeneratorCommand, type GeneratorOutput, type WriteResult } from './output.ts';

/** A relay as the downlink sets it. */
export type RelayAction = 'close' | 'open' | 'none';

const RELAY_CODE: Record<RelayAction, number> = { close: 0x01, open: 0x00, none: 0x11 };

/** The uplink port of the periodic and confirming uplinks. */
export const UPLINK_PORT = 2;

/** The "Control Relay Output RO1/RO2" downlink (type code 0x03), as lower-case hex. */
export function encodeRelayDownlink(ro1: RelayAction, ro2: RelayAction = 'none'): string {
  return Buffer.from([0x03, RELAY_CODE[ro1], RELAY_CODE[ro2]]).toString('hex');
}

/** What the relay downlink asks, read back from its hex; null for another payload. */
export function decodeRelayDownlink(payloadHex: string): { ro1: RelayAction; ro2: RelayAction } | null {
  const bytes = Buffer.from(payloadHex, 'hex');
  if (bytes.length !== 3 || bytes[0] !== 0x03 || payloadHex.length !== 6) return null;
  const action = (code: number | undefined) =>
    (Object.entries(RELAY_CODE).find(([, value]) => value === code)?.[0] as RelayAction | undefined) ?? null;
  const ro1 = action(bytes[1]);
  const ro2 = action(bytes[2]);
  return ro1 && ro2 ? { ro1, ro2 } : null;
}

/** An LT uplink's state, as far as the relay output needs it. Voltages V, currents mA. */
export interface Lt22222Status {
  hardware: 'LT-22222-L' | 'LT-33222-L' | 'unknown';
  /** Work mode 1–6 (MOD1 is the default "2ACI+2AVI"). */
  mode: number;
  /** Relays closed (true) or open; null in MOD6, whose uplink carries no relay state. */
  ro1Closed: boolean | null;
  ro2Closed: boolean | null;
  /** Digital inputs high or floating (true) or low; MOD1 only. */
  di1High?: boolean;
  di2High?: boolean;
  /** Digital outputs pulled low (true) or high/floating; MOD1–5. */
  do1Low?: boolean;
  do2Low?: boolean;
  /** MOD1's analog inputs. */
  avi1V?: number;
  avi2V?: number;
  aci1mA?: number;
  aci2mA?: number;
}

/**
 * Decodes an uplink of the LT-22222-L (fPort 2, 11 bytes); see the module docstring.
 * @returns null for another port or length, which carries no I/O status.
 */
export function decodeLt22222Uplink(fPort: number, payloadHex: string): Lt22222Status | null {
  const bytes = Buffer.from(payloadHex, 'hex');
  if (fPort !== UPLINK_PORT || bytes.length !== 11 || payloadHex.length !== 22) return null;
  const flags = bytes[8] as number;
  const modeByte = bytes[10] as number;
  const mode = modeByte & 0x3f;
  const hardwareBits = modeByte >> 6;
  const hardware = hardwareBits === 1 ? 'LT-22222-L' : hardwareBits === 0 ? 'LT-33222-L' : 'unknown';
  if (mode === 6) return { hardware, mode, ro1Closed: null, ro2Closed: null };
  const bit = (n: number) => (flags & (1 << n)) !== 0;
  const status: Lt22222Status = {
    hardware,
    mode,
    ro1Closed: bit(7),
    ro2Closed: bit(6),
    do1Low: bit(0),
    do2Low: bit(1),
  };
  if (mode === 1) {
    status.di1High = bit(3);
    status.di2High = bit(4);
    status.avi1V = bytes.readInt16BE(0) / 1000;
    status.avi2V = bytes.readInt16BE(2) / 1000;
    status.aci1mA = bytes.readInt16BE(4) / 1000;
    status.aci2mA = bytes.readInt16BE(6) / 1000;
  }
  return status;
}

/** Hands a downlink to the network server's queue; rejects when it cannot be queued. */
export type SendDownlink = (devEui: string, fPort: number, payloadHex: string) => Promise<void>;

/**
 * Switches one LT-22222-L's relays for a circuit. `write` queues the relay downlink and is `ok`
 * once `sendDownlink` took it: a LoRaWAN downlink reaches the device at its next receive window,
 * so nothing can be read back in the same call. `readBack` turns the device's later uplink into
 * the read-back of the last command.
 */
export class LoraRelayOutput implements GeneratorOutput {
  private readonly config: LoraRelayOutputConfig;
  private last: GeneratorCommand | null = null;
  private closed = false;

  /** @throws a ZodError for a configuration the schema refuses. */
  constructor(
    config: LoraRelayOutputConfigInput,
    private readonly sendDownlink: SendDownlink,
    private readonly clock: Clock,
  ) {
    this.config = LoraRelayOutputConfigSchema.parse(config);
  }

  /** The relays for `enabled`, after `invert` and the RO2 setting. */
  relaysFor(enabled: boolean): { ro1: RelayAction; ro2: RelayAction } {
    const ro1Closed = enabled !== this.config.invert;
    const ro2: RelayAction =
      this.config.ro2 === 'none' ? 'none' : (this.config.ro2 === 'follow') === ro1Closed ? 'close' : 'open';
    return { ro1: ro1Closed ? 'close' : 'open', ro2 };
  }

  async write(command: GeneratorCommand): Promise<WriteResult> {
    const at = this.clock();
    const where = `LT-22222-L ${this.config.devEui}`;
    if (this.closed) return { ok: false, at, detail: `${where}: the output is closed` };
    const { ro1, ro2 } = this.relaysFor(command.enabled);
    const payload = encodeRelayDownlink(ro1, ro2);
    const what = `RO1 ${ro1}${ro2 === 'none' ? '' : `, RO2 ${ro2}`} (enable ${command.enabled ? 'on' : 'off'})`;
    // The device has no analog output (module docstring): say so instead of dropping it silently.
    const setpoint =
      command.enabled && command.supplySetpoint !== null
        ? `; supply setpoint ${command.supplySetpoint} °C not sent: the LT-22222-L has no analog output`
        : '';
    try {
      await this.sendDownlink(this.config.devEui, this.config.fPort, payload);
    } catch (error) {
      return {
        ok: false,
        at,
        detail: `${where}: downlink ${payload} for ${what} not queued: ${errorText(error)}`,
      };
    }
    this.last = command;
    return {
      ok: true,
      at,
      detail: `${where}: queued downlink ${payload} on port ${this.config.fPort}: ${what}${setpoint}`,
    };
  }

  /**
   * The read-back of the last command from an uplink of this device: whether the generator is
   * released (RO1, after `invert`), and whether that differs from what was last written (someone
   * switched the relay or the device missed the downlink). null for an uplink without relay state.
   */
  readBack(fPort: number, payloadHex: string): { enabled: boolean; override: boolean } | null {
    const status = decodeLt22222Uplink(fPort, payloadHex);
    if (status === null || status.ro1Closed === null) return null;
    const enabled = status.ro1Closed !== this.config.invert;
    return { enabled, override: this.last !== null && this.last.enabled !== enabled };
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
