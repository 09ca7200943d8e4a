/**
 * The output of each circuit in mode `on` (decision 0077): built from the circuit's configuration
 * and kept between the 5-minute steps, so an MQTT output keeps its broker connection (and Home
 * Assistant's discovery is published once, not every step); a Modbus output opens a connection per
 * write anyway. A changed configuration closes the old output and builds a new one.
 *
 * The LoRaWAN relay hands its downlink to `queueDownlink`, which the server binds to the valves'
 * downlink queue (`lorawan/downlink-queue.ts`, `queueRaw`) for the circuit's company; without it
 * (an instance without the LoRaWAN side) its writes fail with that reason.
 */
import type { CircuitOutputConfig } from '@heizplan/contracts/heating-circuits';
import type { Clock } from '../clock.ts';
import { LoraRelayOutput } from './dragino-lt22222.ts';
import { ModbusOutput } from './modbus.ts';
import { MqttBmsOutput } from './mqtt-bms.ts';
import type { GeneratorCommand, GeneratorOutput, WriteResult } from './output.ts';

/** Output kinds the server can write to in mode `on`. */
export const ACTING_OUTPUT_KINDS: ReadonlyArray<CircuitOutputConfig['kind']> = [
  'modbus',
  'mqtt',
  'lora_relay',
];

/**
 * Queues a downlink for the device of `companyId` with DevEUI `devEui` (fPort, payload hex).
 * Resolves once it is recorded for the network server; rejects when it cannot be (not a device
 * of the company, the database or the LoRaWAN side unavailable).
 */
export type QueueDownlink = (
  companyId: string,
  devEui: string,
  fPort: number,
  payloadHex: string,
) => Promise<void>;

/** What an output needs beyond its configuration: whose it is, and the LoRaWAN downlink queue. */
export interface OutputContext {
  companyId: string;
  queueDownlink?: QueueDownlink;
}

/** An output whose every write fails with `detail`: a configuration that cannot be written to. */
class RefusingOutput implements GeneratorOutput {
  constructor(
    private readonly detail: string,
    private readonly clock: Clock,
  ) {}
  async write(_command: GeneratorCommand): Promise<WriteResult> {
    return { ok: false, at: this.clock(), detail: this.detail };
  }
  async close(): Promise<void> {}
}

/**
 * The output for `config` (an MQTT password in clear text). Never throws: a configuration the
 * adapter refuses becomes an output whose writes fail with the reason.
 */
export function createGeneratorOutput(
  config: CircuitOutputConfig,
  clock: Clock,
  context?: OutputContext,
): GeneratorOutput {
  try {
    switch (config.kind) {
      case 'modbus':
        return new ModbusOutput(config, clock);
      case 'mqtt':
        return new MqttBmsOutput(config, clock);
      case 'lora_relay': {
        const queue = context?.queueDownlink;
        if (!context || !queue) {
          return new RefusingOutput(
            `LT-22222-L ${config.devEui}: the LoRaWAN downlink queue is not running on this server`,
            clock,
          );
        }
        const { companyId } = context;
        return new LoraRelayOutput(
          config,
          (devEui, fPort, payloadHex) => queue(companyId, devEui, fPort, payloadHex),
          clock,
        );
      }
    }
  } catch (error) {
    return new RefusingOutput(`the output's configuration is invalid: ${String(error)}`, clock);
  }
}

/** The outputs of circuits, one per circuit id, rebuilt when its configuration changes. */
export class GeneratorOutputs {
  private readonly byCircuit = new Map<string, { key: string; output: GeneratorOutput }>();

  constructor(
    private readonly clock: Clock,
    private readonly create: (
      config: CircuitOutputConfig,
      clock: Clock,
      context?: OutputContext,
    ) => GeneratorOutput = createGeneratorOutput,
    private readonly queueDownlink?: QueueDownlink,
  ) {}

  /**
   * The output of `circuitId` (of company `companyId`) for `config`; a different configuration
   * than last time closes the old one. `fresh` when built by this call: a new peer (or a restart)
   * that has not been written yet.
   */
  async get(
    circuitId: string,
    config: CircuitOutputConfig,
    companyId: string,
  ): Promise<{ output: GeneratorOutput; fresh: boolean }> {
    const key = JSON.stringify(config);
    const held = this.byCircuit.get(circuitId);
    if (held?.key === key) return { output: held.output, fresh: false };
    if (held) await held.output.close();
    const output = this.create(config, this.clock, { companyId, queueDownlink: this.queueDownlink });
    this.byCircuit.set(circuitId, { key, output });
    return { output, fresh: true };
  }

  /** Closes the output of `circuitId`, if one is held (its configuration or mode changed, or it was deleted). */
  async drop(circuitId: string): Promise<void> {
    const held = this.byCircuit.get(circuitId);
    this.byCircuit.delete(circuitId);
    await held?.output.close();
  }

  /** Closes every output (shutdown). */
  async close(): Promise<void> {
    const held = [...this.byCircuit.values()];
    this.byCircuit.clear();
    await Promise.all(held.map(({ output }) => output.close()));
  }
}
