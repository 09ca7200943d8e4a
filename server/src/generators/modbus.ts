/**
 * A heat generator reached by Modbus TCP (decision 0075): the supply setpoint into a holding
 * register, the enable into a coil or a holding register, then, where configured, both read back
 * to see whether someone overrode the generator by hand.
 *
 * Function codes as the Modbus Application Protocol Specification V1.1b3 (§6) names them: 05 Write
 * Single Coil, 06 Write Single Register, 01 Read Coils, 03 Read Holding Registers. Registers are 16
 * bits: the setpoint is °C × scale, rounded half away from zero, as a signed (two's complement)
 * or unsigned integer; a value outside that range is not written. Client: `modbus-serial`.
 *
 * Each write opens its own connection and closes it: a command goes out every few minutes, many
 * generators' controllers accept one or two Modbus TCP connections only, and a fresh connection
 * has no half-dead socket from the night before to find out about.
 */
import {
  type ModbusOutputConfig,
  type ModbusOutputConfigInput,
  ModbusOutputConfigSchema,
} from '@heizplan/contracts/generator-outputs';
import ModbusRTU from 'modbus-serial';
import type { Clock } from '../clock.ts';
import { errorText, type GeneratorCommand, type GeneratorOutput, type WriteResult } from './output.ts';

/**
 * The register value for `celsius` at `scale`: rounded half away from zero, as the 16-bit word on
 * the wire (a negative signed value in two's complement). @returns the word, or why it does not fit.
 */
export function toRegister(
  celsius: number,
  scale: number,
  signed: boolean,
): { word: number } | { error: string } {
  const scaled = celsius * scale;
  // Round half away from zero (Math.round would take -45.5 to -45); the epsilon absorbs binary
  // fractions such as 45.55 × 10 = 455.49999….
  const value = Math.sign(scaled) * Math.round(Math.abs(scaled) + 1e-9);
  const [min, max] = signed ? [-32768, 32767] : [0, 65535];
  if (!Number.isFinite(value) || value < min || value > max)
    return { error: `${celsius} °C × ${scale} = ${value} is outside ${min}…${max}` };
  return { word: value < 0 ? value + 0x10000 : value };
}

/** °C for a 16-bit register `word` at `scale` (the inverse of `toRegister`). */
export function fromRegister(word: number, scale: number, signed: boolean): number {
  const value = signed && word >= 0x8000 ? word - 0x10000 : word;
  return value / scale;
}

/** Writes circuits' commands to one Modbus TCP device. See the module docstring. */
export class ModbusOutput implements GeneratorOutput {
  private readonly config: ModbusOutputConfig;
  /** The clients of writes running now, each with what ends its write when the output closes. */
  private readonly open = new Map<ModbusRTU, (reason: Error) => void>();
  private closed = false;

  /** @throws a ZodError for a configuration the schema refuses (nothing is connected then). */
  constructor(
    config: ModbusOutputConfigInput,
    private readonly clock: Clock,
  ) {
    this.config = ModbusOutputConfigSchema.parse(config);
  }

  private get peer() {
    return `Modbus TCP ${this.config.host}:${this.config.port} unit ${this.config.unitId}`;
  }

  async write(command: GeneratorCommand): Promise<WriteResult> {
    const at = this.clock();
    const fail = (detail: string): WriteResult => ({ ok: false, at, detail: `${this.peer}: ${detail}` });
    if (this.closed) return fail('the output is closed');
    const { setpoint, enable, timeoutMs } = this.config;

    // The setpoint only matters while the generator runs; off, the enable alone is written.
    let setpointWord: number | undefined;
    if (command.enabled && command.supplySetpoint !== null) {
      const encoded = toRegister(command.supplySetpoint, setpoint.scale, setpoint.signed);
      if ('error' in encoded) return fail(`supply setpoint not written: ${encoded.error}`);
      setpointWord = encoded.word;
    }
    const enableWord = enable.kind === 'register' ? (command.enabled ? enable.on : enable.off) : undefined;

    const client = new ModbusRTU();
    // Failures arrive as rejected calls; an 'error' event without a listener would throw instead.
    client.on('error', () => {});
    // `destroy` cancels a pending reply's timeout without settling it: close() ends the write here.
    let abort: (reason: Error) => void = () => {};
    const aborted = new Promise<never>((_, reject) => {
      abort = reject;
    });
    aborted.catch(() => {});
    const run = <T>(call: Promise<T>) => Promise.race([call, aborted]);
    this.open.set(client, abort);
    let step = 'connecting';
    try {
      client.setTimeout(timeoutMs);
      await run(client.connectTCP(this.config.host, { port: this.config.port }));
      client.setID(this.config.unitId);

      const written: string[] = [];
      if (setpointWord !== undefined) {
        step = `writing the supply setpoint (FC 06, register ${setpoint.register})`;
        await run(client.writeRegister(setpoint.register, setpointWord));
        written.push(
          `setpoint ${command.supplySetpoint} °C as ${setpointWord} → register ${setpoint.register}`,
        );
      }
      if (enable.kind === 'coil') {
        step = `writing the enable (FC 05, coil ${enable.coil})`;
        await run(client.writeCoil(enable.coil, command.enabled));
        written.push(`enable ${command.enabled ? 'on' : 'off'} → coil ${enable.coil}`);
      } else {
        step = `writing the enable (FC 06, register ${enable.register})`;
        await run(client.writeRegister(enable.register, enableWord as number));
        written.push(
          `enable ${command.enabled ? 'on' : 'off'} as ${enableWord} → register ${enable.register}`,
        );
      }

      const readBack: NonNullable<WriteResult['readBack']> = {};
      const overrides: string[] = [];
      if (setpoint.readBack) {
        const register = setpoint.readBackRegister ?? setpoint.register;
        step = `reading the supply setpoint back (FC 03, register ${register})`;
        const word = (await run(client.readHoldingRegisters(register, 1))).data[0] as number;
        readBack.supplySetpoint = fromRegister(word, setpoint.scale, setpoint.signed);
        // Compared as words: the scaled value is what the generator stores, no float tolerance needed.
        if (setpointWord !== undefined && word !== setpointWord)
          overrides.push(
            `supply setpoint reads ${readBack.supplySetpoint} °C, not ${command.supplySetpoint} °C`,
          );
      }
      if (enable.readBack) {
        if (enable.kind === 'coil') {
          const coil = enable.readBackCoil ?? enable.coil;
          step = `reading the enable back (FC 01, coil ${coil})`;
          readBack.enabled = (await run(client.readCoils(coil, 1))).data[0] === true;
          if (readBack.enabled !== command.enabled)
            overrides.push(
              `enable reads ${readBack.enabled ? 'on' : 'off'}, not ${command.enabled ? 'on' : 'off'}`,
            );
        } else {
          const register = enable.readBackRegister ?? enable.register;
          step = `reading the enable back (FC 03, register ${register})`;
          const word = (await run(client.readHoldingRegisters(register, 1))).data[0] as number;
          if (word === enable.on || word === enable.off) {
            readBack.enabled = word === enable.on;
            if (readBack.enabled !== command.enabled)
              overrides.push(
                `enable reads ${readBack.enabled ? 'on' : 'off'}, not ${command.enabled ? 'on' : 'off'}`,
              );
          } else {
            overrides.push(
              `enable register reads ${word}, neither on (${enable.on}) nor off (${enable.off})`,
            );
          }
        }
      }

      const detail = `${this.peer}: wrote ${written.join(', ')}${
        overrides.length > 0 ? `; override on the generator: ${overrides.join('; ')}` : ''
      }`;
      return {
        ok: true,
        at,
        detail,
        ...(setpoint.readBack || enable.readBack ? { readBack, override: overrides.length > 0 } : {}),
      };
    } catch (error) {
      return fail(`${step}: ${describe(error, timeoutMs)}`);
    } finally {
      this.open.delete(client);
      client.destroy(() => {});
    }
  }

  /** Ends the connections of writes still running (they answer `ok: false`); later writes refuse. */
  async close(): Promise<void> {
    this.closed = true;
    for (const [client, abort] of this.open) {
      abort(new Error('the output was closed during the write'));
      client.destroy(() => {});
    }
    this.open.clear();
  }
}

/** The error of a Modbus call as one phrase: a timeout with its limit, an exception reply with its code. */
function describe(error: unknown, timeoutMs: number): string {
  const text = errorText(error);
  if (/timed out/i.test(text)) return `no answer within ${timeoutMs} ms (${text})`;
  const code = (error as { modbusCode?: unknown } | null)?.modbusCode;
  if (typeof code === 'number') return `exception ${code} (${text})`;
  return text;
}
