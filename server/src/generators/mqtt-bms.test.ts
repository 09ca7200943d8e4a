/** The MQTT output's configuration and state payloads, without a broker. */
import { MqttBmsOutputConfigSchema } from '@heizplan/contracts/generator-outputs';
import { describe, expect, it } from 'vitest';
import { discoveryMessages, stateMessages } from './mqtt-bms.ts';

const config = MqttBmsOutputConfigSchema.parse({ url: 'mqtt://bms.local', companySlug: 'acme' });

describe('MqttBmsOutputConfigSchema', () => {
  it('defaults to heizplan/<companySlug>/circuits/<circuitId>/ and Home Assistant’s prefix', () => {
    expect(config).toEqual({
      url: 'mqtt://bms.local',
      companySlug: 'acme',
      baseTopic: 'heizplan/{companySlug}/circuits/{circuitId}/',
      availabilityTopic: 'heizplan/{companySlug}/availability',
      discoveryPrefix: 'homeassistant',
      timeoutMs: 5000,
    });
  });

  it('refuses topics that would leak into other circuits or match as wildcards', () => {
    const parse = (extra: object) =>
      MqttBmsOutputConfigSchema.safeParse({ url: 'mqtt://bms.local', companySlug: 'acme', ...extra }).success;
    expect(parse({ companySlug: 'a/b' })).toBe(false);
    expect(parse({ companySlug: 'a+' })).toBe(false);
    expect(parse({ baseTopic: 'bms/{companySlug}/' })).toBe(false);
    expect(parse({ baseTopic: 'bms/{circuitId}' })).toBe(false);
    expect(parse({ baseTopic: 'bms/#/{circuitId}/' })).toBe(false);
    expect(parse({ baseTopic: 'bms/{circuitId}/' })).toBe(true);
    expect(parse({ url: 'http://bms.local' })).toBe(false);
  });
});

describe('stateMessages', () => {
  it('rounds to one decimal and leaves out what the report does not say', () => {
    expect(stateMessages(config, { circuitId: 'c1', enabled: true, supplySetpoint: 47.25 })).toEqual([
      { topic: 'heizplan/acme/circuits/c1/enabled', payload: 'ON' },
      { topic: 'heizplan/acme/circuits/c1/supply_setpoint', payload: '47.3' },
    ]);
    expect(
      stateMessages(config, {
        circuitId: 'c1',
        enabled: false,
        supplySetpoint: 47,
        demandPercent: 0,
        holdingUp: [],
      }).map((m) => m.payload),
    ).toEqual(['OFF', 'None', '0', '[]']);
  });
});

describe('discoveryMessages', () => {
  it('keeps node and object ids to the characters Home Assistant allows', () => {
    const odd = MqttBmsOutputConfigSchema.parse({ url: 'mqtt://bms.local', companySlug: 'müller.gmbh' });
    expect(discoveryMessages(odd, 'c1', 'HK').map((m) => m.topic)).toEqual([
      'homeassistant/binary_sensor/heizplan_m_ller_gmbh/c1_enabled/config',
      'homeassistant/sensor/heizplan_m_ller_gmbh/c1_supply_setpoint/config',
      'homeassistant/sensor/heizplan_m_ller_gmbh/c1_demand/config',
      'homeassistant/sensor/heizplan_m_ller_gmbh/c1_holding_up/config',
    ]);
  });

  it('publishes none without a discovery prefix', () => {
    expect(discoveryMessages({ ...config, discoveryPrefix: null }, 'c1', 'HK')).toEqual([]);
  });
});
