import { describe, expect, it } from 'vitest';
import { FrameError } from './network-server.ts';
import { parseTts, ttsFormat } from './tts.ts';

/** An uplink as The Things Stack v3 publishes it on `v3/{app}@{tenant}/devices/{id}/up`. */
const uplink = {
  end_device_ids: {
    device_id: 'room-102',
    application_ids: { application_id: 'heizplan' },
    dev_eui: '70B3D52DD3000D2B',
    join_eui: '70B3D52DD3000000',
    dev_addr: '260B1234',
  },
  correlation_ids: ['as:up:01HZ', 'gs:uplink:01HZ'],
  received_at: '2026-11-22T05:40:12.400Z',
  uplink_message: {
    session_key_id: 'AYa1',
    f_port: 1,
    f_cnt: 41,
    frm_payload: 'gRKdYZmZEeAw',
    decoded_payload: { sensorTemperature: 22.3 },
    rx_metadata: [
      {
        gateway_ids: { gateway_id: 'gw-hall', eui: 'B827EBFFFE6C2A11' },
        time: '2026-11-22T05:40:12.100Z',
        rssi: -101,
        channel_rssi: -101,
        snr: 4.25,
      },
      { gateway_ids: { gateway_id: 'gw-roof' }, channel_rssi: -88, snr: 8 },
    ],
    settings: { data_rate: { lora: { bandwidth: 125000, spreading_factor: 7 } }, frequency: '868100000' },
    received_at: '2026-11-22T05:40:12.380Z',
  },
};
const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const base = 'v3/heizplan@acme/devices/room-102';

describe('parseTts', () => {
  it('reads an uplink: lowercase DevEUI, f_cnt/f_port, payload, decoded_payload, time and best gateway', () => {
    expect(parseTts(`${base}/up`, json(uplink))).toEqual({
      kind: 'uplink',
      deviceId: 'room-102',
      devEui: '70b3d52dd3000d2b',
      fCnt: 41,
      fPort: 1,
      bytes: new Uint8Array(Buffer.from('81129d61999911e030', 'hex')),
      object: { sensorTemperature: 22.3 },
      time: new Date('2026-11-22T05:40:12.380Z'),
      radio: { rssi: -88, snr: 8, gatewayIds: ['b827ebfffe6c2a11', 'gw-roof'] },
      spreadingFactor: 7,
    });
  });

  it('matches down/* events to Heizplan downlinks by correlation id', () => {
    const event = (state: string, inner: object) =>
      parseTts(
        `${base}/down/${state}`,
        json({
          end_device_ids: uplink.end_device_ids,
          correlation_ids: ['as:downlink:01HZ'],
          received_at: '2026-11-22T05:41:00Z',
          [`downlink_${state}`]: inner,
        }),
      );
    const downlink = {
      f_port: 1,
      frm_payload: 'Diw=',
      correlation_ids: ['heizplan:downlink:d1', 'as:downlink:01HZ'],
    };
    expect(event('sent', downlink)).toEqual({
      kind: 'downlink',
      devEui: '70b3d52dd3000d2b',
      downlinkId: 'd1',
      state: 'sent',
      time: new Date('2026-11-22T05:41:00Z'),
    });
    expect(event('ack', downlink)).toMatchObject({ state: 'acknowledged' });
    expect(event('nack', downlink)).toMatchObject({ state: 'failed' });
    expect(event('failed', { downlink, error: { message_format: 'expired' } })).toMatchObject({
      downlinkId: 'd1',
      state: 'failed',
    });
    expect(event('queued', { f_port: 1, correlation_ids: ['console:1'] })).toMatchObject({ kind: 'ignored' });
  });

  it('rejects an uplink without a DevEUI or with a bad payload', () => {
    expect(() => parseTts(`${base}/up`, json({ ...uplink, end_device_ids: { device_id: 'x' } }))).toThrow(
      FrameError,
    );
    expect(() =>
      parseTts(
        `${base}/up`,
        json({ ...uplink, uplink_message: { ...uplink.uplink_message, frm_payload: '%%' } }),
      ),
    ).toThrow(/frm_payload/);
  });
});

describe('ttsFormat', () => {
  it('subscribes to the tenant application and pushes downlinks to the device id learnt from uplinks', () => {
    const format = ttsFormat({ appId: 'heizplan', tenant: 'acme' });
    expect(format.subscriptions).toEqual([
      'v3/heizplan@acme/devices/+/up',
      'v3/heizplan@acme/devices/+/down/+',
    ]);
    const request = {
      id: 'd1',
      devEui: '70b3d52dd3000d2b',
      fPort: 1,
      bytes: new Uint8Array([0x0e, 0x2c]),
      confirmed: false,
    };
    expect(format.downlink(request).topic).toBe('v3/heizplan@acme/devices/eui-70b3d52dd3000d2b/down/push');
    format.parse(`${base}/up`, json(uplink));
    const push = format.downlink(request);
    expect(push.topic).toBe('v3/heizplan@acme/devices/room-102/down/push');
    expect(JSON.parse(push.payload.toString())).toEqual({
      downlinks: [
        {
          f_port: 1,
          frm_payload: 'Diw=',
          confirmed: false,
          priority: 'NORMAL',
          correlation_ids: ['heizplan:downlink:d1'],
        },
      ],
    });
  });

  it('uses the plain application id without a tenant (Open Source deployment)', () => {
    expect(ttsFormat({ appId: 'heizplan' }).subscriptions[0]).toBe('v3/heizplan/devices/+/up');
  });
});
