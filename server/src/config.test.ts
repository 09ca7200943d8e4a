import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configWarnings, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to PGlite in ./data/pglite on port 3000', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.database).toEqual({ kind: 'pglite', dir: path.resolve('data/pglite') });
    expect(c.publicUrl).toBe('http://localhost:3000');
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' });
    expect(c.database).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/db' });
  });

  it('names every bad variable', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', MQTT_URL: 'http://x' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const vars = (error as ConfigError).issues.map((i) => i.variable).sort();
    expect(vars).toEqual(['DATABASE_URL', 'MQTT_URL', 'PORT']);
    expect((error as ConfigError).message).toContain('PORT');
  });

  it('takes a support contact for the help page: an e-mail address and an http(s) page', () => {
    expect(loadConfig({}).support).toEqual({ email: undefined, url: undefined });
    expect(
      loadConfig({ SUPPORT_EMAIL: 'hilfe@example.com', SUPPORT_URL: 'https://example.com/hilfe' }).support,
    ).toEqual({ email: 'hilfe@example.com', url: 'https://example.com/hilfe' });
    expect(() => loadConfig({ SUPPORT_EMAIL: 'hilfe' })).toThrow(/SUPPORT_EMAIL/);
    // The web app links to it: a javascript: URL would run in the app's origin.
    expect(() => loadConfig({ SUPPORT_URL: 'javascript:alert(1)' })).toThrow(/SUPPORT_URL/);
  });

  it('believes no proxy unless TRUST_PROXY names them, so clients cannot fake their IP', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('takes uplinks through one plain session unless MQTT_SHARE_GROUP asks for a shared subscription', () => {
    const mqtt = {
      MQTT_URL: 'mqtt://broker:1883',
      INSTANCES: '2',
      DATABASE_URL: 'postgres://db/heizplan',
      DEVICE_KEY_SECRET: 'ab'.repeat(32),
    };
    expect(loadConfig({}).lorawan.shareGroup).toBeUndefined();
    // Several instances too: a shared subscription loses uplinks across a broker restart.
    expect(loadConfig(mqtt).lorawan.shareGroup).toBeUndefined();
    expect(loadConfig({ ...mqtt, INSTANCES: '1' }).lorawan.shareGroup).toBeUndefined();
    expect(loadConfig({ ...mqtt, MQTT_SHARE_GROUP: 'hz' }).lorawan.shareGroup).toBe('hz');
    expect(loadConfig({ ...mqtt, MQTT_SHARE_GROUP: '' }).lorawan.shareGroup).toBeUndefined();
    // The embedded broker (aedes) has no shared subscriptions.
    expect(loadConfig({ MQTT_SHARE_GROUP: 'hz' }).lorawan.shareGroup).toBeUndefined();
    expect(() => loadConfig({ ...mqtt, MQTT_SHARE_GROUP: 'a/b' })).toThrow(/MQTT_SHARE_GROUP/);
    // Members are <id>-<n>: the id leaves room for the suffix within 23 characters.
    expect(() => loadConfig({ ...mqtt, MQTT_SHARE_GROUP: 'hz', MQTT_CLIENT_ID: 'x'.repeat(21) })).toThrow(
      /MQTT_CLIENT_ID/,
    );
    expect(loadConfig({ ...mqtt, MQTT_CLIENT_ID: 'x'.repeat(21) }).lorawan.clientId).toHaveLength(21);
    expect(loadConfig({ MQTT_CLIENT_ID: 'x'.repeat(23) }).lorawan.clientId).toHaveLength(23);
  });

  it('warns at start that a shared subscription can lose uplinks while the broker restarts', () => {
    const mqtt = { MQTT_URL: 'mqtt://broker:1883' };
    expect(configWarnings(loadConfig({}))).toEqual([]);
    expect(configWarnings(loadConfig(mqtt))).toEqual([]);
    const warnings = configWarnings(loadConfig({ ...mqtt, MQTT_SHARE_GROUP: 'hz' }));
    expect(warnings).toEqual([
      { variable: 'MQTT_SHARE_GROUP', message: expect.stringContaining('$share/hz/') },
    ]);
    expect(warnings[0]?.message).toMatch(/broker restarts can be lost/);
  });

  it('refuses more than one instance on the embedded database or broker, naming each missing variable', () => {
    let error: unknown;
    try {
      loadConfig({ INSTANCES: '2', DEMO: '1' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const issues = (error as ConfigError).issues;
    expect(issues.map((i) => i.variable).sort()).toEqual([
      'DATABASE_URL',
      'DEMO',
      'DEVICE_KEY_SECRET',
      'MQTT_URL',
    ]);
    expect((error as ConfigError).message).toContain('INSTANCES=2 needs it: the embedded database (PGlite)');

    const cluster = loadConfig({
      INSTANCES: '2',
      DATABASE_URL: 'postgres://db/heizplan',
      MQTT_URL: 'mqtt://broker:1883',
      DEVICE_KEY_SECRET: 'ab'.repeat(32),
    });
    expect(cluster.instances).toBe(2);
    // The demo's simulator would run once per instance.
    expect(cluster.demo).toBe(false);
    expect(loadConfig({}).instances).toBe(1);
  });
});
