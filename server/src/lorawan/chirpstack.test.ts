import { describe, expect, it } from 'vitest';
import { chirpstackDownlink, parseChirpstack } from './chirpstack.ts';
import { FrameError } from './network-server.ts';

/** An `up` event as ChirpStack v4 publishes it with the JSON marshaler (docs example shape). */
const upEvent = {
  deduplicationId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
  time: '2026-11-22T05:40:12.345678+00:00',
  deviceInfo: {
    tenantId: '52f14cd4-c6f1-4fbd-8f87-4025e1d49242',
    tenantName: 'ChirpStack',
    applicationId: '17c82e96-be03-4f38-aef3-f83d48582d97',
    applicationName: 'Heizplan',
    deviceProfileId: '14855bf7-d10d-4aee-b618-ebfcb64dc7ad',
    deviceProfileName: 'MClimate Vicki',
    deviceName: 'Room 1.02',
    devEui: '70b3d52dd3000d2b',
    deviceClassEnabled: 'CLASS_A',
    tags: {},
  },
  devAddr: '00d8ed60',
  adr: true,
  dr: 5,
  fCnt: 41,
  fPort: 1,
  confirmed: false,
  data: 'gRKdYZmZEeAw',
  object: { sensorTemperature: 22.3 },
  rxInfo: [
    { gatewayId: '0016c001ff10a235', uplinkId: 4217, rssi: -97, snr: 6.2, channel: 2, location: {} },
    { gatewayId: 'AA555A0000000101', uplinkId: 1, rssi: -79, snr: 9.5, channel: 2, location: {} },
  ],
  txInfo: { frequency: 868500000, modulation: { lora: { bandwidth: 125000, spreadingFactor: 7 } } },
};

const topic = (event: string, devEui = '70b3d52dd3000d2b') =>
  `application/17c82e96-be03-4f38-aef3-f83d48582d97/device/${devEui}/event/${event}`;
const json = (v: unknown) => Buffer.from(JSON.stringify(v));

describe('parseChirpstack', () => {
  it('reads an up event: DevEUI, counters, payload bytes, NS object, time and the best gateway', () => {
    const event = parseChirpstack(topic('up'), json(upEvent));
    expect(event).toEqual({
      kind: 'uplink',
      devEui: '70b3d52dd3000d2b',
      fCnt: 41,
      fPort: 1,
      bytes: new Uint8Array(Buffer.from('81129d61999911e030', 'hex')),
      object: { sensorTemperature: 22.3 },
      time: new Date('2026-11-22T05:40:12.345Z'),
      deduplicationId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
      radio: { rssi: -79, snr: 9.5, gatewayIds: ['0016c001ff10a235', 'aa555a0000000101'] },
      spreadingFactor: 7,
    });
  });

  it('normalises an uppercase DevEUI and treats omitted proto3 defaults (fCnt 0, no data) as such', () => {
    const { fCnt: _f, data: _d, rxInfo: _r, ...rest } = upEvent;
    const event = parseChirpstack(
      topic('up', '70B3D52DD3000D2B'),
      json({ ...rest, deviceInfo: { ...upEvent.deviceInfo, devEui: '70B3D52DD3000D2B' } }),
    );
    expect(event).toMatchObject({
      kind: 'uplink',
      devEui: '70b3d52dd3000d2b',
      fCnt: 0,
      bytes: new Uint8Array(),
    });
    expect(event.kind === 'uplink' && event.radio).toEqual({ gatewayIds: [] });
  });

  it('reads battery from a status event, and none when the device reports it unavailable', () => {
    const status = { deduplicationId: 'x', time: upEvent.time, deviceInfo: upEvent.deviceInfo, margin: 7 };
    expect(parseChirpstack(topic('status'), json({ ...status, batteryLevel: 87.4 }))).toMatchObject({
      kind: 'status',
      batteryPercent: 87.4,
    });
    expect(
      parseChirpstack(topic('status'), json({ ...status, batteryLevelUnavailable: true, batteryLevel: 0 })),
    ).toMatchObject({ kind: 'status', batteryPercent: undefined });
  });

  it('maps txack to sent and ack to acknowledged or failed by queueItemId', () => {
    const base = { time: upEvent.time, deviceInfo: upEvent.deviceInfo, queueItemId: 'd1', fCntDown: 3 };
    expect(
      parseChirpstack(topic('txack'), json({ ...base, downlinkId: 123, gatewayId: '0016C001FF10A235' })),
    ).toEqual({
      kind: 'downlink',
      devEui: '70b3d52dd3000d2b',
      downlinkId: 'd1',
      state: 'sent',
      gatewayId: '0016c001ff10a235',
      time: new Date(upEvent.time),
    });
    expect(parseChirpstack(topic('ack'), json({ ...base, acknowledged: true }))).toMatchObject({
      state: 'acknowledged',
    });
    expect(parseChirpstack(topic('ack'), json(base))).toMatchObject({ state: 'failed' });
  });

  it('reads gateway stats and the retained connection state (OFFLINE is the omitted default)', () => {
    expect(
      parseChirpstack(
        'eu868/gateway/0016c001ff10a235/event/stats',
        json({ gatewayId: '0016c001ff10a235', time: '2026-11-22T05:00:00Z', rxPacketsReceived: 4 }),
      ),
    ).toEqual({
      kind: 'gateway',
      gatewayEui: '0016c001ff10a235',
      time: new Date('2026-11-22T05:00:00Z'),
      online: true,
    });
    const now = new Date('2026-11-22T06:00:00Z');
    const conn = (v: unknown) => parseChirpstack('eu868/gateway/0016c001ff10a235/state/conn', json(v), now);
    expect(conn({ gatewayId: '0016c001ff10a235', state: 'ONLINE' })).toMatchObject({
      online: true,
      time: now,
    });
    expect(conn({ gatewayId: '0016c001ff10a235' })).toMatchObject({ online: false });
  });

  it('ignores events Heizplan does not use', () => {
    expect(
      parseChirpstack(topic('join'), json({ deviceInfo: upEvent.deviceInfo, devAddr: '01' })),
    ).toMatchObject({
      kind: 'ignored',
    });
  });

  it('rejects malformed frames with a FrameError naming the device', () => {
    const bad = (t: string, p: string) => () => parseChirpstack(t, Buffer.from(p));
    expect(bad(topic('up'), '{"fCnt":')).toThrow(FrameError);
    expect(bad(topic('up'), JSON.stringify({ ...upEvent, data: 'not base64!' }))).toThrow(
      /data is not base64/,
    );
    expect(bad(topic('up'), JSON.stringify({ ...upEvent, fCnt: -1 }))).toThrow(/fCnt/);
    expect(bad(topic('up', 'nothex'), JSON.stringify({}))).toThrow(/devEui/);
    expect(bad(topic('ack'), JSON.stringify({ deviceInfo: upEvent.deviceInfo }))).toThrow(/queueItemId/);
    try {
      bad(topic('up'), '[]')();
    } catch (err) {
      expect((err as FrameError).source).toBe('70b3d52dd3000d2b');
    }
  });
});

describe('chirpstackDownlink', () => {
  it('publishes {id, devEui, confirmed, fPort, data} to the device command/down topic', () => {
    const message = chirpstackDownlink('app-1', {
      id: 'b8a5c5e6-0d4b-4a51-b7a2-2f4b06b1b2a1',
      devEui: '70b3d52dd3000d2b',
      fPort: 1,
      bytes: new Uint8Array([0x0e, 0x2c]),
      confirmed: true,
    });
    expect(message.topic).toBe('application/app-1/device/70b3d52dd3000d2b/command/down');
    expect(JSON.parse(message.payload.toString())).toEqual({
      id: 'b8a5c5e6-0d4b-4a51-b7a2-2f4b06b1b2a1',
      devEui: '70b3d52dd3000d2b',
      confirmed: true,
      fPort: 1,
      data: 'Diw=',
    });
  });
});
