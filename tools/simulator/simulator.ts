/**
 * LoRaWAN simulator: pretends to be ChirpStack v4 with gateways and devices behind it.
 * It publishes exactly what ChirpStack's MQTT integration publishes (JSON marshaler) — `event/up`
 * with the vendor's real byte layout (the codec registry's `encodeUplink`), `txack`/`ack` for
 * downlinks, gateway `event/stats` and a retained `state/conn` (OFFLINE as its last will) — and
 * takes `command/down` like ChirpStack: a downlink waits for the device's next uplink (class A),
 * then the device applies the setpoint it decodes from the bytes (`decodeDownlink`).
 * Rooms follow `thermal.ts`. Time is simulated: `tick(hours)` advances every room and sends one
 * uplink per device, so a backfill can run weeks of history in seconds. Faults are
 * set per device at the start or while running (`inject`): silence, a draining battery, an open
 * window, fault flags and a radiator that stays cold.
 */
import { randomUUID } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import type { DeviceConfig, ReportedConfig } from '../../packages/contracts/src/device-profiles.ts';
import { chirpstackUplinkEvent } from '../../server/src/lorawan/chirpstack.ts';
import type {
  AntiFreeze,
  Battery,
  DownlinkQuery,
  ModelId,
  Reading,
} from '../../server/src/lorawan/codecs/codec.ts';
import { getCodec } from '../../server/src/lorawan/codecs/registry.ts';
import { advance, type RoomState, type ThermalParams, WINTER } from './thermal.ts';

export interface SimulatedDevice {
  devEui: string;
  model: ModelId;
  /** Starting room temperature, °C (default 16). */
  roomTemperature?: number;
  /** Starting setpoint, °C (default 20). */
  setpoint?: number;
  /** Firmware "major.minor" the device answers a firmware query with (default 4.3). */
  firmware?: string;
  /** LoRa spreading factor its uplinks arrive with (7…12, default 7). */
  spreadingFactor?: number;
  /** Configuration it holds already, over the model's factory settings (a restarted demo's valves). */
  config?: ReportedConfig;
  faults?: DeviceFaults;
}

/** What can go wrong with a simulated device; all off by default. */
export interface DeviceFaults {
  /** Sends no uplinks (out of range, flat battery, taken off); the room goes on. */
  silent?: boolean;
  /** Battery as the model reports it (V or %) and how much it falls per simulated day. */
  battery?: { value: number; perDay?: number };
  /** Reports an open window, and the room loses heat about ten times as fast. */
  openWindow?: boolean;
  /** Fault codes the device reports, as the codecs name them (e.g. `calibrationFailed`). */
  errors?: string[];
  /** The radiator stays cold (no supply water): the valve opens but the room does not warm. */
  noHeat?: boolean;
}

export interface SimulatorOptions {
  url: string;
  applicationId: string;
  /** Gateway EUIs (16 hex). */
  gateways: string[];
  devices: SimulatedDevice[];
  region?: string;
  topicPrefix?: string;
  clientId?: string;
  thermal?: ThermalParams;
  /** Outside temperature °C at a simulated instant; replaces `thermal.outside` when given. */
  outside?: (at: Date) => number;
  /** Simulated start time (default now). */
  start?: Date;
}

interface DeviceState {
  spec: SimulatedDevice;
  room: RoomState;
  fCnt: number;
  /** Downlinks ChirpStack holds until the next uplink. */
  queue: { id: string; fPort: number; bytes: Uint8Array }[];
  faults: DeviceFaults;
  /** The device's own frost protection (a Vicki's defaults until set). */
  antiFreeze: AntiFreeze;
  /** Its configuration (device profiles): the model's factory settings until set; null for models without. */
  config: DeviceConfig | null;
  /** Queries of the last downlinks, answered in the next uplink. */
  answers: Set<DownlinkQuery>;
  /** Motor recalibrations it was asked for. */
  recalibrations: number;
}

export interface Simulator {
  /** Simulated now. */
  readonly now: Date;
  /** Room state per DevEUI. */
  rooms(): Map<string, RoomState>;
  /** How often each device was asked to recalibrate its motor, per DevEUI. */
  recalibrations(): Map<string, number>;
  /** Advances time by `hours`, then every device sends one uplink (and answers queued downlinks). */
  tick(hours: number): Promise<void>;
  /**
   * Changes the faults of a device: given fields replace the current ones (`{ silent: false }`
   * brings a silent device back, `{ battery: undefined }` a fresh battery).
   * @throws Error for a DevEUI the simulator does not run.
   */
  inject(devEui: string, faults: DeviceFaults): void;
  /** Publishes gateway stats for all gateways at the simulated now. */
  gatewayStats(): Promise<void>;
  close(): Promise<void>;
}

/** A healthy battery as each model reports it (V or %), within the vendor's encodable range. */
export const HEALTHY_BATTERY: Record<ModelId, Battery> = {
  'mclimate-vicki': { value: 3.4, unit: 'V' },
  'milesight-wt101': { value: 87, unit: '%' },
  'micropelt-mlr003': { value: 3, unit: 'V' },
  'elsys-ers': { value: 3.6, unit: 'V' },
  // Mains powered, its uplink carries no battery; the simulator runs valves and sensors only.
  'dragino-lt22222': { value: 12, unit: 'V' },
};

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  const prefix = options.topicPrefix ?? '';
  const region = options.region ?? 'eu868';
  const thermal = options.thermal ?? WINTER;
  let now = options.start ?? new Date();
  const devices = new Map<string, DeviceState>(
    options.devices.map((spec) => [
      spec.devEui,
      {
        spec,
        room: { roomTemperature: spec.roomTemperature ?? 16, setpoint: spec.setpoint ?? 20, valveOpening: 0 },
        fCnt: 0,
        queue: [],
        faults: spec.faults ?? {},
        antiFreeze: { activation: 6, deactivation: 9, target: 7 },
        config: configOf(spec),
        answers: new Set(),
        recalibrations: 0,
      },
    ]),
  );
  const conn = (gatewayId: string) => `${prefix}${region}/gateway/${gatewayId}/state/conn`;
  const [firstGateway] = options.gateways;
  const client: MqttClient = await mqtt.connectAsync(options.url, {
    protocolVersion: 4,
    clientId: options.clientId ?? `heizplan-sim-${randomUUID().slice(0, 8)}`,
    will: firstGateway
      ? {
          topic: conn(firstGateway),
          payload: Buffer.from(JSON.stringify({ gatewayId: firstGateway })),
          qos: 1,
          retain: true,
        }
      : undefined,
  });
  const publish = (topic: string, body: object, retain = false) =>
    client.publishAsync(`${prefix}${topic}`, JSON.stringify(body), { qos: 1, retain });

  client.on('message', (topic, payload) => {
    const match = /\/device\/([0-9a-f]{16})\/command\/down$/.exec(topic);
    const device = match ? devices.get(match[1] as string) : undefined;
    if (!device) return;
    try {
      const body = JSON.parse(payload.toString()) as { id?: string; fPort: number; data: string };
      device.queue.push({
        id: body.id ?? randomUUID(),
        fPort: body.fPort,
        bytes: Buffer.from(body.data, 'base64'),
      });
    } catch {
      // ChirpStack would log and drop a malformed command as well.
    }
  });
  await client.subscribeAsync(`${prefix}application/${options.applicationId}/device/+/command/down`, {
    qos: 1,
  });
  for (const gatewayId of options.gateways)
    await publish(`${region}/gateway/${gatewayId}/state/conn`, { gatewayId, state: 'ONLINE' }, true);

  const deviceInfo = (devEui: string) => ({ applicationId: options.applicationId, devEui });

  async function uplink(device: DeviceState, gatewayId: string) {
    const { spec, room, faults } = device;
    const codec = getCodec(spec.model);
    device.fCnt++;
    const battery = faults.battery
      ? { value: faults.battery.value, unit: HEALTHY_BATTERY[spec.model].unit }
      : HEALTHY_BATTERY[spec.model];
    const heated = room.valveOpening > 0 && !faults.noHeat;
    const reading: Reading =
      codec.kind === 'sensor'
        ? {
            roomTemperature: round1(room.roomTemperature),
            humidity: 45,
            battery,
            errors: [],
          }
        : {
            roomTemperature: round1(room.roomTemperature),
            setpoint: room.setpoint,
            valveOpening: room.valveOpening,
            supplyTemperature: heated ? thermal.supply : round1(room.roomTemperature),
            battery,
            ...(faults.openWindow !== undefined ? { openWindow: faults.openWindow } : {}),
            errors: faults.errors ?? [],
            ...(device.answers.has('firmware') ? { firmware: spec.firmware ?? '4.3' } : {}),
            ...(device.answers.has('antiFreeze') ? { antiFreeze: device.antiFreeze } : {}),
            ...(device.config ? { childLock: device.config.childLock } : {}),
            ...answeredConfig(device),
          };
    device.answers.clear();
    const frame = codec.encodeUplink(reading);
    const event = chirpstackUplinkEvent({
      applicationId: options.applicationId,
      devEui: spec.devEui,
      fCnt: device.fCnt,
      fPort: frame.fPort,
      bytes: frame.bytes,
      time: now,
      gatewayId,
      rssi: -70 - (Number.parseInt(spec.devEui.slice(-2), 16) % 40),
      snr: 7.5,
      spreadingFactor: spec.spreadingFactor ?? 7,
      deduplicationId: randomUUID(),
    });
    await client.publishAsync(`${prefix}${event.topic}`, event.payload, { qos: 1 });
    // Class A: ChirpStack sends the queued downlinks in this uplink's receive window.
    for (const downlink of device.queue.splice(0)) {
      const time = new Date(now.getTime() + 1000).toISOString();
      await publish(`application/${options.applicationId}/device/${spec.devEui}/event/txack`, {
        time,
        deviceInfo: deviceInfo(spec.devEui),
        queueItemId: downlink.id,
        gatewayId,
      });
      const acknowledged = applyDownlink(device, downlink);
      await publish(`application/${options.applicationId}/device/${spec.devEui}/event/ack`, {
        time,
        deviceInfo: deviceInfo(spec.devEui),
        queueItemId: downlink.id,
        acknowledged,
      });
    }
  }

  return {
    get now() {
      return now;
    },
    rooms: () => new Map([...devices].map(([devEui, d]) => [devEui, d.room])),
    recalibrations: () => new Map([...devices].map(([devEui, d]) => [devEui, d.recalibrations])),
    inject(devEui, faults) {
      const device = devices.get(devEui);
      if (!device) throw new Error(`the simulator runs no device ${devEui}`);
      device.faults = { ...device.faults, ...faults };
    },
    async tick(hours) {
      const middle = new Date(now.getTime() + hours * 1_800_000);
      now = new Date(now.getTime() + hours * 3_600_000);
      const weather = options.outside ? { ...thermal, outside: options.outside(middle) } : thermal;
      let i = 0;
      for (const device of devices.values()) {
        device.room = advance(device.room, faultyRoom(weather, device.faults), hours);
        const { battery } = device.faults;
        if (battery?.perDay)
          device.faults.battery = {
            ...battery,
            value: Math.max(0, battery.value - (battery.perDay * hours) / 24),
          };
        const gatewayId = options.gateways[i++ % options.gateways.length] as string;
        if (!device.faults.silent) await uplink(device, gatewayId);
      }
    },
    async gatewayStats() {
      for (const gatewayId of options.gateways) {
        await publish(`${region}/gateway/${gatewayId}/event/stats`, {
          gatewayId,
          time: now.toISOString(),
          rxPacketsReceived: devices.size,
          rxPacketsReceivedOk: devices.size,
        });
      }
    },
    async close() {
      for (const gatewayId of options.gateways)
        await publish(`${region}/gateway/${gatewayId}/state/conn`, { gatewayId }, true);
      await client.endAsync();
    },
  };
}

/** The room's physics under a device's faults: an open window loses heat fast, a cold radiator gives none. */
function faultyRoom(thermal: ThermalParams, faults: DeviceFaults): ThermalParams {
  return {
    ...thermal,
    ...(faults.openWindow ? { lossRate: thermal.lossRate * 10 } : {}),
    ...(faults.noHeat ? { heatRate: 0 } : {}),
  };
}

/** The device side of a downlink: true when it understood the bytes (it then confirms). */
function applyDownlink(device: DeviceState, downlink: { fPort: number; bytes: Uint8Array }): boolean {
  try {
    const command = getCodec(device.spec.model).decodeDownlink(downlink.fPort, downlink.bytes);
    if (command.setpoint !== undefined) device.room = { ...device.room, setpoint: command.setpoint };
    if (command.antiFreeze) device.antiFreeze = command.antiFreeze;
    if (command.config && device.config) device.config = { ...device.config, ...command.config };
    if (command.recalibrate) device.recalibrations++;
    for (const query of command.queries ?? []) device.answers.add(query);
    return true;
  } catch {
    return false;
  }
}

const round1 = (v: number) => Math.round(v * 10) / 10;

/** The configuration a device starts with: the model's factory settings and what `spec` says it holds. */
function configOf(spec: SimulatedDevice): DeviceConfig | null {
  const factory = getCodec(spec.model).config?.factory;
  return factory ? { ...factory, ...spec.config } : null;
}

/** The configuration fields the device was asked for, answered in its next uplink. */
function answeredConfig(device: DeviceState): { config?: ReportedConfig } {
  const config: ReportedConfig = {};
  const held = device.config;
  if (!held) return {};
  for (const field of Object.keys(held) as (keyof DeviceConfig)[]) {
    if (device.answers.has(field)) Object.assign(config, { [field]: held[field] });
  }
  return Object.keys(config).length > 0 ? { config } : {};
}
