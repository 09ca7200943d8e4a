import { describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig } from '../config.ts';
import { networkServerFormat } from './lorawan.ts';

describe('LoRaWAN configuration', () => {
  it('defaults to ChirpStack on the embedded broker with a fixed session client id', () => {
    const config = loadConfig({});
    expect(config.mqttUrl).toBeUndefined();
    expect(config.lorawan).toMatchObject({ networkServer: 'chirpstack', clientId: 'heizplan' });
    expect(networkServerFormat(config.lorawan).subscriptions).toContain('application/+/device/+/event/+');
  });

  it('selects The Things Stack with tenant topics', () => {
    const config = loadConfig({ LORAWAN_NS: 'tts', TTS_APP_ID: 'valves', TTS_TENANT: 'ttn' });
    expect(networkServerFormat(config.lorawan).subscriptions).toEqual([
      'v3/valves@ttn/devices/+/up',
      'v3/valves@ttn/devices/+/down/+',
    ]);
  });

  it('names a bad network server and an over-long MQTT 3.1.1 client id', () => {
    try {
      loadConfig({ LORAWAN_NS: 'loriot', MQTT_CLIENT_ID: 'x'.repeat(24) });
      expect.unreachable();
    } catch (err) {
      expect((err as ConfigError).issues.map((i) => i.variable).sort()).toEqual([
        'LORAWAN_NS',
        'MQTT_CLIENT_ID',
      ]);
    }
  });
});
