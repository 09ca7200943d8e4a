/**
 * The MQTT output for a building management system against the embedded broker (aedes over real
 * TCP): the Home Assistant discovery messages of one circuit as published, the retained state a
 * late subscriber gets, and availability — online, offline on close, and offline as the last will
 * when the connection dies.
 */
import { once } from 'node:events';
import { createServer, type Server, Socket } from 'node:net';
import mqtt from 'mqtt';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type EmbeddedBroker, startEmbeddedBroker } from '../lorawan/embedded-broker.ts';
import { MqttBmsOutput } from './mqtt-bms.ts';

const AT = new Date('2026-12-03T06:00:00Z');
const clock = () => AT;
const CIRCUIT = '0b7c6f1e-4d2a-4c55-9a51-3f2e8d1c7a90';

let broker: EmbeddedBroker;
const cleanups: Array<() => Promise<unknown>> = [];
beforeEach(async () => {
  broker = await startEmbeddedBroker({ port: 0 });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await broker.close();
});

/** Waits for `check` to hold, polling, up to a deadline; a failure names what it waited for. */
const until = (what: string, check: () => boolean, timeoutMs = 5000) =>
  vi.waitFor(() => expect(check(), `waiting for ${what}`).toBe(true), { timeout: timeoutMs });

/** A subscriber recording every message with its retain flag; the last per topic in `latest`. */
async function subscriber(url: string, filter: string) {
  const client = await mqtt.connectAsync(url, { protocolVersion: 4 });
  cleanups.push(() => client.endAsync());
  const received: Array<{ topic: string; payload: string; retain: boolean }> = [];
  const latest = new Map<string, string>();
  client.on('message', (topic, payload, packet) => {
    received.push({ topic, payload: payload.toString(), retain: packet.retain });
    latest.set(topic, payload.toString());
  });
  await client.subscribeAsync(filter, { qos: 1 });
  return { client, received, latest };
}

const outputFor = (url: string, extra: Record<string, unknown> = {}) => {
  const output = new MqttBmsOutput({ url, companySlug: 'stadtwerke-nord', ...extra }, clock);
  cleanups.push(() => output.close());
  return output;
};

const report = {
  circuitId: CIRCUIT,
  name: 'Schule Nord HK 1',
  enabled: true,
  supplySetpoint: 52.34,
  demandPercent: 63.75,
  holdingUp: ['Raum 1.04', 'Turnhalle'],
};

describe('MqttBmsOutput against the embedded broker', () => {
  it('publishes Home Assistant discovery for a circuit: one retained config per entity', async () => {
    const result = await outputFor(broker.url).write(report);
    expect(result.ok).toBe(true);
    // Subscribed afterwards, as Home Assistant starting later: the broker hands over what it kept
    // (a live subscriber gets retain 0 on forwarded messages, MQTT 3.1.1 §3.3.1.3).
    const ha = await subscriber(broker.url, 'homeassistant/#');
    await until('four discovery configs', () => ha.received.length === 4);

    const node = 'homeassistant/%s/heizplan_stadtwerke-nord';
    const device = {
      identifiers: [`heizplan_${CIRCUIT}`],
      name: 'Schule Nord HK 1',
      manufacturer: 'Heizplan',
      model: 'Heating circuit',
    };
    const availability = {
      availability_topic: 'heizplan/stadtwerke-nord/availability',
      payload_available: 'online',
      payload_not_available: 'offline',
      device,
      origin: { name: 'Heizplan' },
    };
    const base = `heizplan/stadtwerke-nord/circuits/${CIRCUIT}/`;
    // By topic: a broker hands retained messages over in an order of its own.
    const byTopic = (a: { topic: string }, b: { topic: string }) => a.topic.localeCompare(b.topic);
    expect(
      ha.received
        .map(({ topic, payload, retain }) => ({ topic, config: JSON.parse(payload), retain }))
        .sort(byTopic),
    ).toEqual(
      [
        {
          topic: `${node.replace('%s', 'binary_sensor')}/${CIRCUIT}_enabled/config`,
          retain: true,
          config: {
            unique_id: `heizplan_${CIRCUIT}_enabled`,
            state_topic: `${base}enabled`,
            name: 'Heat generator enabled',
            payload_on: 'ON',
            payload_off: 'OFF',
            icon: 'mdi:fire',
            ...availability,
          },
        },
        {
          topic: `${node.replace('%s', 'sensor')}/${CIRCUIT}_supply_setpoint/config`,
          retain: true,
          config: {
            unique_id: `heizplan_${CIRCUIT}_supply_setpoint`,
            state_topic: `${base}supply_setpoint`,
            name: 'Supply temperature setpoint',
            device_class: 'temperature',
            state_class: 'measurement',
            unit_of_measurement: '°C',
            suggested_display_precision: 1,
            ...availability,
          },
        },
        {
          topic: `${node.replace('%s', 'sensor')}/${CIRCUIT}_demand/config`,
          retain: true,
          config: {
            unique_id: `heizplan_${CIRCUIT}_demand`,
            state_topic: `${base}demand`,
            name: 'Demand',
            state_class: 'measurement',
            unit_of_measurement: '%',
            icon: 'mdi:radiator',
            ...availability,
          },
        },
        {
          topic: `${node.replace('%s', 'sensor')}/${CIRCUIT}_holding_up/config`,
          retain: true,
          config: {
            unique_id: `heizplan_${CIRCUIT}_holding_up`,
            state_topic: `${base}holding_up`,
            name: 'Rooms holding the supply temperature up',
            state_class: 'measurement',
            value_template: '{{ value_json | count }}',
            json_attributes_topic: `${base}holding_up`,
            json_attributes_template: "{{ {'rooms': value_json} | tojson }}",
            icon: 'mdi:home-thermometer',
            ...availability,
          },
        },
      ].sort(byTopic),
    );
  });

  it('announces a circuit once, and again when its name changes', async () => {
    const ha = await subscriber(broker.url, 'homeassistant/#');
    const output = outputFor(broker.url);
    const first = await output.write(report);
    const again = await output.write({ ...report, supplySetpoint: 50 });
    const renamed = await output.write({ ...report, name: 'Schule Nord Altbau' });
    expect(
      [first.detail, again.detail, renamed.detail].map((d) => d.endsWith('with Home Assistant discovery')),
    ).toEqual([true, false, true]);
    await until('two rounds of discovery', () => ha.received.length === 8);
    const enabledConfig = `homeassistant/binary_sensor/heizplan_stadtwerke-nord/${CIRCUIT}_enabled/config`;
    expect(JSON.parse(ha.latest.get(enabledConfig) ?? '{}').device.name).toBe('Schule Nord Altbau');
  });

  it('keeps the state retained for a subscriber that comes later', async () => {
    const output = outputFor(broker.url);
    const result = await output.write(report);
    expect(result).toEqual({
      ok: true,
      at: AT,
      detail:
        `MQTT ${broker.url}: published enabled=ON supply_setpoint=52.3 demand=63.8 ` +
        `holding_up=["Raum 1.04","Turnhalle"] under heizplan/stadtwerke-nord/circuits/${CIRCUIT}/ ` +
        'with Home Assistant discovery',
    });

    const late = await subscriber(broker.url, 'heizplan/stadtwerke-nord/#');
    const base = `heizplan/stadtwerke-nord/circuits/${CIRCUIT}/`;
    await until('the retained state', () => late.received.length === 5);
    expect(late.received.every((message) => message.retain)).toBe(true);
    expect(Object.fromEntries(late.latest)).toEqual({
      'heizplan/stadtwerke-nord/availability': 'online',
      [`${base}enabled`]: 'ON',
      [`${base}supply_setpoint`]: '52.3',
      [`${base}demand`]: '63.8',
      [`${base}holding_up`]: '["Raum 1.04","Turnhalle"]',
    });
  });

  it('publishes OFF and an unknown setpoint while off, under a configured base topic', async () => {
    const output = outputFor(broker.url, {
      baseTopic: 'bms/{companySlug}/hk/{circuitId}/',
      discoveryPrefix: null,
    });
    const bms = await subscriber(broker.url, 'bms/#');
    const result = await output.write({ circuitId: CIRCUIT, enabled: false, supplySetpoint: null });
    expect(result.ok).toBe(true);
    await until('the state', () => bms.received.length === 2);
    expect(Object.fromEntries(bms.latest)).toEqual({
      [`bms/stadtwerke-nord/hk/${CIRCUIT}/enabled`]: 'OFF',
      [`bms/stadtwerke-nord/hk/${CIRCUIT}/supply_setpoint`]: 'None',
    });
  });

  it('says online while connected and offline when closed', async () => {
    const watch = await subscriber(broker.url, 'heizplan/stadtwerke-nord/availability');
    const output = outputFor(broker.url);
    await output.write(report);
    await until('online', () => watch.latest.get('heizplan/stadtwerke-nord/availability') === 'online');
    await output.close();
    await until('offline', () => watch.latest.get('heizplan/stadtwerke-nord/availability') === 'offline');
    expect(await output.write(report)).toMatchObject({ ok: false, detail: expect.stringMatching(/closed$/) });
  });

  it('leaves offline behind as its last will when the connection dies', async () => {
    // A TCP relay between the output and the broker: cutting it is a crash or a cut network, the
    // broker sees the connection end without DISCONNECT and publishes the will.
    const relayed = new Set<Socket>();
    const relay: Server = createServer((inbound) => {
      const outbound = new Socket();
      outbound.connect(broker.port, '127.0.0.1');
      inbound.pipe(outbound).pipe(inbound);
      for (const socket of [inbound, outbound]) {
        relayed.add(socket);
        socket.on('error', () => {});
      }
    });
    relay.listen(0, '127.0.0.1');
    await once(relay, 'listening');
    cleanups.push(() => new Promise((resolve) => relay.close(resolve)));
    const { port } = relay.address() as { port: number };

    const watch = await subscriber(broker.url, 'heizplan/stadtwerke-nord/availability');
    const output = outputFor(`mqtt://127.0.0.1:${port}`);
    expect((await output.write(report)).ok).toBe(true);
    await until('online', () => watch.latest.get('heizplan/stadtwerke-nord/availability') === 'online');

    relay.close();
    for (const socket of relayed) socket.destroy();
    await until('the will', () => watch.latest.get('heizplan/stadtwerke-nord/availability') === 'offline');
  });

  it('answers ok: false within its timeout when no broker answers, without throwing', async () => {
    const nobody = createServer();
    nobody.listen(0, '127.0.0.1');
    await once(nobody, 'listening');
    const { port } = nobody.address() as { port: number };
    await new Promise((resolve) => nobody.close(resolve));

    const output = outputFor(`mqtt://127.0.0.1:${port}`, { timeoutMs: 300 });
    const result = await output.write(report);
    expect(result).toEqual({
      ok: false,
      at: AT,
      detail: expect.stringMatching(
        new RegExp(
          `^MQTT mqtt://127\\.0\\.0\\.1:${port}: no acknowledgement within 300 ms \\(.*ECONNREFUSED.*\\)$`,
        ),
      ),
    });
  });
});
