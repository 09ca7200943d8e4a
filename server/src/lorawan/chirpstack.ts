/**
 * ChirpStack v4 MQTT integration with the JSON marshaler (chirpstack/api
 * `integration/integration.proto`, docs "Integrations → MQTT"; gateway topics from the
 * ChirpStack MQTT Forwarder / Gateway Bridge "gateway stats" and retained "state/conn").
 *
 * Topics:
 * - `application/{applicationId}/device/{devEui}/event/{up|status|ack|txack|join|log|…}`
 * - `application/{applicationId}/device/{devEui}/command/down` ← `{id, devEui, confirmed, fPort, data}`
 * - `{region}/gateway/{gatewayId}/event/stats`, `{region}/gateway/{gatewayId}/state/conn` (retained)
 *
 * The downlink `id` is the queue item id ChirpStack echoes as `queueItemId` in `txack`/`ack`,
 * which is how a downlink row learns it was sent and acknowledged.
 */
import {
  bestRadio,
  type DownlinkRequest,
  FrameError,
  isRecord,
  type MqttMessage,
  type NetworkServerFormat,
  type NsEvent,
  parseBase64,
  parseJson,
  parseTime,
  requireCount,
  requireEui,
  spreadingFactor,
} from './network-server.ts';

const DEVICE_TOPIC = /^application\/([^/]+)\/device\/([^/]+)\/event\/([^/]+)$/;
const GATEWAY_TOPIC = /^([^/]+)\/gateway\/([^/]+)\/(event\/stats|state\/conn)$/;

/** Parses one ChirpStack MQTT message. `now` stands in for a missing `time`. @throws FrameError */
export function parseChirpstack(topic: string, payload: Buffer, now = new Date()): NsEvent {
  const device = DEVICE_TOPIC.exec(topic);
  if (device) return parseDeviceEvent(device[3] as string, device[2] as string, payload, now);
  const gateway = GATEWAY_TOPIC.exec(topic);
  if (gateway) {
    const gatewayEui = requireEui(gateway[2], 'gatewayId in topic', gateway[2]);
    const body = parseJson(payload, gatewayEui);
    if (gateway[3] === 'event/stats') {
      return { kind: 'gateway', gatewayEui, time: parseTime(body.time, now, gatewayEui), online: true };
    }
    // proto3 JSON omits enum zero values, and OFFLINE is 0: a missing state means offline.
    return { kind: 'gateway', gatewayEui, time: now, online: body.state === 'ONLINE' };
  }
  return { kind: 'ignored', reason: `topic ${topic} is not a ChirpStack event` };
}

function parseDeviceEvent(event: string, topicDevEui: string, payload: Buffer, now: Date): NsEvent {
  const source = topicDevEui.toLowerCase();
  const body = parseJson(payload, source);
  const info = isRecord(body.deviceInfo) ? body.deviceInfo : {};
  const devEui = requireEui(info.devEui ?? topicDevEui, 'deviceInfo.devEui', source);
  const time = parseTime(body.time, now, source);
  switch (event) {
    case 'up': {
      const rxInfo = Array.isArray(body.rxInfo) ? body.rxInfo.filter(isRecord) : [];
      return {
        kind: 'uplink',
        devEui,
        fCnt: requireCount(body.fCnt ?? 0, 'fCnt', source),
        fPort: requireCount(body.fPort ?? 0, 'fPort', source),
        bytes: parseBase64(body.data, 'data', source),
        object: isRecord(body.object) ? body.object : undefined,
        time,
        deduplicationId: typeof body.deduplicationId === 'string' ? body.deduplicationId : undefined,
        radio: bestRadio(rxInfo.map((r) => ({ gatewayId: lower(r.gatewayId), rssi: r.rssi, snr: r.snr }))),
        spreadingFactor: spreadingFactor(
          isRecord(body.txInfo) && isRecord(body.txInfo.modulation) ? body.txInfo.modulation.lora : undefined,
          'spreadingFactor',
        ),
      };
    }
    case 'status':
      return {
        kind: 'status',
        devEui,
        time,
        batteryPercent:
          body.batteryLevelUnavailable === true || body.externalPowerSource === true
            ? undefined
            : typeof body.batteryLevel === 'number'
              ? body.batteryLevel
              : undefined,
      };
    case 'txack':
    case 'ack': {
      if (typeof body.queueItemId !== 'string' || body.queueItemId === '') {
        throw new FrameError(`${event} event without queueItemId`, source);
      }
      const state = event === 'txack' ? 'sent' : body.acknowledged === true ? 'acknowledged' : 'failed';
      return {
        kind: 'downlink',
        devEui,
        downlinkId: body.queueItemId,
        state,
        gatewayId: lower(body.gatewayId),
        time,
      };
    }
    default:
      return { kind: 'ignored', reason: `ChirpStack ${event} event` };
  }
}

const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : undefined);

/** The `command/down` publish for `request` in application `applicationId`. */
export function chirpstackDownlink(applicationId: string, request: DownlinkRequest): MqttMessage {
  return {
    topic: `application/${applicationId}/device/${request.devEui}/command/down`,
    payload: Buffer.from(
      JSON.stringify({
        id: request.id,
        devEui: request.devEui,
        confirmed: request.confirmed,
        fPort: request.fPort,
        data: Buffer.from(request.bytes).toString('base64'),
      }),
    ),
  };
}

/**
 * The ChirpStack dialect. Subscribes to every application's device events (one Heizplan
 * deployment may span several ChirpStack applications) and to gateway stats/state.
 */
export function chirpstackFormat(options: { applicationId: string }): NetworkServerFormat {
  return {
    name: 'chirpstack',
    subscriptions: ['application/+/device/+/event/+', '+/gateway/+/event/stats', '+/gateway/+/state/conn'],
    parse: (topic, payload) => parseChirpstack(topic, payload),
    downlink: (request) => chirpstackDownlink(options.applicationId, request),
  };
}

/** What a simulated device sends; the fields ChirpStack fills in for a real one. */
export interface SimulatedUplink {
  applicationId: string;
  devEui: string;
  fCnt: number;
  fPort: number;
  bytes: Uint8Array;
  time: Date;
  gatewayId: string;
  rssi: number;
  snr: number;
  /** LoRa spreading factor (7…12); default 7. */
  spreadingFactor?: number;
  deduplicationId: string;
}

/**
 * The `event/up` message ChirpStack would publish for `uplink` (the simulator's and the tests'
 * frame source; `parseChirpstack` reads it back).
 */
export function chirpstackUplinkEvent(uplink: SimulatedUplink): MqttMessage {
  return {
    topic: `application/${uplink.applicationId}/device/${uplink.devEui}/event/up`,
    payload: Buffer.from(
      JSON.stringify({
        deduplicationId: uplink.deduplicationId,
        time: uplink.time.toISOString(),
        deviceInfo: { applicationId: uplink.applicationId, devEui: uplink.devEui },
        fCnt: uplink.fCnt,
        fPort: uplink.fPort,
        confirmed: false,
        data: Buffer.from(uplink.bytes).toString('base64'),
        rxInfo: [{ gatewayId: uplink.gatewayId, rssi: uplink.rssi, snr: uplink.snr }],
        txInfo: {
          frequency: 868100000,
          modulation: {
            lora: { bandwidth: 125000, spreadingFactor: uplink.spreadingFactor ?? 7, codeRate: 'CR_4_5' },
          },
        },
      }),
    ),
  };
}
