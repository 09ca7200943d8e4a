/**
 * A building management system fed by MQTT (decision 0075): each circuit's state published
 * retained, so a BMS or Home Assistant that subscribes late still gets the last value, under
 * `heizplan/<companySlug>/circuits/<circuitId>/` by default:
 * - `enabled`: `ON` or `OFF`, whether the heat generator should run;
 * - `supply_setpoint`: the recommended supply temperature, °C with one decimal, or `None` while
 *   off (Home Assistant's MQTT entities take the payload `None` as "unknown");
 * - `demand`: the rooms' radiator-weighted valve opening, %, one decimal;
 * - `holding_up`: a JSON array of the names of the rooms that hold the supply temperature up.
 *
 * Home Assistant MQTT discovery (Home Assistant docs, MQTT integration, "MQTT Discovery": topic
 * `<discovery_prefix>/<component>/[<node_id>/]<object_id>/config`, node and object ids from
 * `[a-zA-Z0-9_-]`): one retained config per entity, published with a circuit's first write and
 * again when its name changes, each with `unique_id`, a `device` block per circuit, the
 * availability topic and the entity's `state_topic`; the setpoint is a `sensor` with
 * `device_class: temperature` and `unit_of_measurement: °C`.
 *
 * Availability: `online` retained when connected, `offline` retained on `close()`, and the same
 * `offline` as the connection's last will, which the broker publishes when Heizplan goes away
 * without closing (a crash, a cut network). Messages go out with QoS 1; a write is `ok` once the
 * broker acknowledged all of its messages. There is nothing to read back: a BMS has no channel
 * back here yet.
 */
import { randomUUID } from 'node:crypto';
import {
  type MqttBmsOutputConfig,
  type MqttBmsOutputConfigInput,
  MqttBmsOutputConfigSchema,
} from '@heizplan/contracts/generator-outputs';
import mqtt, { type MqttClient } from 'mqtt';
import type { Clock } from '../clock.ts';
import { errorText, type GeneratorCommand, type GeneratorOutput, type WriteResult } from './output.ts';

/** What a BMS is told about a circuit: its command plus what explains it. */
export interface CircuitReport extends GeneratorCommand {
  /** The circuit's name, Home Assistant's device name; default: the circuit's id. */
  name?: string;
  /** The rooms' demand, %; left out, the `demand` topic keeps its last value. */
  demandPercent?: number;
  /** Names of the rooms holding the supply temperature up; left out, `holding_up` keeps its last value. */
  holdingUp?: string[];
}

/** The state topics of one circuit below its base topic. */
export const STATE_KEYS = ['enabled', 'supply_setpoint', 'demand', 'holding_up'] as const;

/** `{companySlug}` and `{circuitId}` filled into a topic template. */
function fill(template: string, companySlug: string, circuitId = ''): string {
  return template.replaceAll('{companySlug}', companySlug).replaceAll('{circuitId}', circuitId);
}

/** Only the characters Home Assistant allows in a discovery topic's node and object ids. */
const discoveryId = (value: string) => value.replace(/[^a-zA-Z0-9_-]/g, '_');

/** The base topic of a circuit's state, ending in `/`. */
export function circuitTopic(config: MqttBmsOutputConfig, circuitId: string): string {
  return fill(config.baseTopic, config.companySlug, circuitId);
}

/**
 * The retained Home Assistant discovery messages of one circuit: topic and JSON payload per
 * entity (a binary sensor for the enable, sensors for setpoint, demand and the rooms holding up).
 */
export function discoveryMessages(
  config: MqttBmsOutputConfig,
  circuitId: string,
  name: string,
): Array<{ topic: string; payload: Record<string, unknown> }> {
  if (config.discoveryPrefix === null) return [];
  const base = circuitTopic(config, circuitId);
  const node = discoveryId(`heizplan_${config.companySlug}`);
  const shared = {
    availability_topic: fill(config.availabilityTopic, config.companySlug),
    payload_available: 'online',
    payload_not_available: 'offline',
    device: {
      identifiers: [`heizplan_${circuitId}`],
      name,
      manufacturer: 'Heizplan',
      model: 'Heating circuit',
    },
    origin: { name: 'Heizplan' },
  };
  const entity = (component: string, key: (typeof STATE_KEYS)[number], fields: Record<string, unknown>) => ({
    topic: `${config.discoveryPrefix}/${component}/${node}/${discoveryId(`${circuitId}_${key}`)}/config`,
    payload: {
      unique_id: `heizplan_${circuitId}_${key}`,
      state_topic: `${base}${key}`,
      ...fields,
      ...shared,
    },
  });
  return [
    entity('binary_sensor', 'enabled', {
      name: 'Heat generator enabled',
      payload_on: 'ON',
      payload_off: 'OFF',
      icon: 'mdi:fire',
    }),
    entity('sensor', 'supply_setpoint', {
      name: 'Supply temperature setpoint',
      device_class: 'temperature',
      state_class: 'measurement',
      unit_of_measurement: '°C',
      suggested_display_precision: 1,
    }),
    entity('sensor', 'demand', {
      name: 'Demand',
      state_class: 'measurement',
      unit_of_measurement: '%',
      icon: 'mdi:radiator',
    }),
    // The state is the number of rooms; their names go to the attributes, since a sensor's state
    // holds at most 255 characters and a list of room names can be longer.
    entity('sensor', 'holding_up', {
      name: 'Rooms holding the supply temperature up',
      state_class: 'measurement',
      value_template: '{{ value_json | count }}',
      json_attributes_topic: `${base}holding_up`,
      json_attributes_template: "{{ {'rooms': value_json} | tojson }}",
      icon: 'mdi:home-thermometer',
    }),
  ];
}

const oneDecimal = (value: number) => String(Math.round(value * 10) / 10);

/** The retained state messages of one report, in `STATE_KEYS` order. */
export function stateMessages(
  config: MqttBmsOutputConfig,
  report: CircuitReport,
): Array<{ topic: string; payload: string }> {
  const base = circuitTopic(config, report.circuitId);
  const running = report.enabled && report.supplySetpoint !== null;
  return [
    { topic: `${base}enabled`, payload: report.enabled ? 'ON' : 'OFF' },
    {
      topic: `${base}supply_setpoint`,
      payload: running ? oneDecimal(report.supplySetpoint as number) : 'None',
    },
    ...(report.demandPercent === undefined
      ? []
      : [{ topic: `${base}demand`, payload: oneDecimal(report.demandPercent) }]),
    ...(report.holdingUp === undefined
      ? []
      : [{ topic: `${base}holding_up`, payload: JSON.stringify(report.holdingUp) }]),
  ];
}

/** Publishes circuits' state to one broker for one company. See the module docstring. */
export class MqttBmsOutput implements GeneratorOutput {
  private readonly config: MqttBmsOutputConfig;
  private readonly client: MqttClient;
  private readonly availability: string;
  /** The name each circuit's discovery messages were published with. */
  private readonly announced = new Map<string, string>();
  private lastError: string | null = null;
  private closed = false;

  /**
   * Connects in the background (and reconnects every second): writes before the connection is up
   * wait for it, up to the timeout. @throws a ZodError for a configuration the schema refuses.
   */
  constructor(
    config: MqttBmsOutputConfigInput,
    private readonly clock: Clock,
  ) {
    this.config = MqttBmsOutputConfigSchema.parse(config);
    this.availability = fill(this.config.availabilityTopic, this.config.companySlug);
    this.client = mqtt.connect(this.config.url, {
      // The embedded broker (aedes) speaks MQTT 3.1.1 only, as The Things Stack does.
      protocolVersion: 4,
      clientId: `heizplan-bms-${this.config.companySlug}-${randomUUID().slice(0, 8)}`,
      username: this.config.username,
      password: this.config.password,
      reconnectPeriod: 1000,
      will: { topic: this.availability, payload: Buffer.from('offline'), qos: 1, retain: true },
    });
    this.client.on('connect', () => {
      this.lastError = null;
      this.client.publish(this.availability, 'online', { qos: 1, retain: true });
    });
    // Without a listener an 'error' event would throw; the next write's detail names it instead.
    this.client.on('error', (error) => {
      this.lastError = errorText(error);
    });
  }

  async write(report: CircuitReport): Promise<WriteResult> {
    const at = this.clock();
    const where = `MQTT ${this.config.url}`;
    if (this.closed) return { ok: false, at, detail: `${where}: the output is closed` };
    const name = report.name ?? report.circuitId;
    const announce = this.announced.get(report.circuitId) !== name;
    const messages = [
      ...(announce
        ? discoveryMessages(this.config, report.circuitId, name).map(({ topic, payload }) => ({
            topic,
            payload: JSON.stringify(payload),
          }))
        : []),
      ...stateMessages(this.config, report),
    ];
    const published = Promise.all(
      messages.map(({ topic, payload }) =>
        this.client.publishAsync(topic, payload, { qos: 1, retain: true }),
      ),
    );
    const outcome = await withDeadline(published, this.config.timeoutMs);
    if (outcome !== 'done') {
      const cause = outcome === 'timeout' ? `no acknowledgement within ${this.config.timeoutMs} ms` : outcome;
      return {
        ok: false,
        at,
        detail: `${where}: ${cause}${this.lastError && outcome === 'timeout' ? ` (${this.lastError})` : ''}`,
      };
    }
    if (announce) this.announced.set(report.circuitId, name);
    const state = stateMessages(this.config, report)
      .map(
        ({ topic, payload }) =>
          `${topic.slice(circuitTopic(this.config, report.circuitId).length)}=${payload}`,
      )
      .join(' ');
    return {
      ok: true,
      at,
      detail: `${where}: published ${state} under ${circuitTopic(this.config, report.circuitId)}${
        announce ? ' with Home Assistant discovery' : ''
      }`,
    };
  }

  /** Publishes `offline` (a clean disconnect drops the last will), then disconnects. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.client.connected) {
      await withDeadline(
        this.client.publishAsync(this.availability, 'offline', { qos: 1, retain: true }),
        this.config.timeoutMs,
      );
    }
    // Forced when offline: messages still queued for a broker that is gone are dropped.
    await this.client.endAsync(!this.client.connected);
  }
}

/** `done`, `timeout`, or the rejection's message; never throws. */
async function withDeadline(work: Promise<unknown>, ms: number): Promise<'done' | 'timeout' | string> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  // Settled either way, so a rejection after the deadline is not left unhandled.
  const settled = work.then(
    () => 'done' as const,
    (error: unknown) => errorText(error),
  );
  try {
    return await Promise.race([settled, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
