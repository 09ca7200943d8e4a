/**
 * The Things Stack v3 MQTT server (docs "Integrations → Other integrations → MQTT Server").
 * Topics, with `{app}` = `{application id}@{tenant id}` (plain application id on Open Source):
 * - `v3/{app}/devices/{deviceId}/up` — `end_device_ids.dev_eui`, `uplink_message.{f_port, f_cnt,
 *   frm_payload, decoded_payload, rx_metadata[].gateway_ids, received_at}`
 * - `v3/{app}/devices/{deviceId}/down/{queued|sent|ack|nack|failed}` — `downlink_<state>` bodies
 * - `v3/{app}/devices/{deviceId}/down/push` ← `{"downlinks":[{f_port, frm_payload, confirmed,
 *   priority, correlation_ids}]}`
 *
 * Heizplan tags each downlink with the correlation id `heizplan:downlink:{id}`; TTS copies the
 * downlink's correlation ids into its down/* events, which is how they are matched.
 * Push topics name the TTS device id, not the DevEUI, so the id is learnt from uplinks
 * (`eui-{deveui}`, the console default, until one arrives). The adapter subscribes to these
 * topics with QoS 1 and commits before it acknowledges, exactly as for ChirpStack; the TTS MQTT
 * server grants QoS 0 only (its docs: "MQTT 3.1.1 and QoS 0 only"), so the no-loss guarantee
 * holds only for a broker that grants QoS 1, and the adapter logs a warning when it is not granted.
 */
import {
  bestRadio,
  type DownlinkRequest,
  type DownlinkStatusEvent,
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

export const CORRELATION_PREFIX = 'heizplan:downlink:';

const TOPIC = /^v3\/([^/]+)\/devices\/([^/]+)\/(up|down\/(queued|sent|ack|nack|failed))$/;

const DOWN_STATES: Record<string, DownlinkStatusEvent['state']> = {
  queued: 'queued',
  sent: 'sent',
  ack: 'acknowledged',
  nack: 'failed',
  failed: 'failed',
};

/** Parses one TTS MQTT message. @throws FrameError */
export function parseTts(topic: string, payload: Buffer, now = new Date()): NsEvent & { deviceId?: string } {
  const match = TOPIC.exec(topic);
  if (!match) return { kind: 'ignored', reason: `topic ${topic} is not a TTS device event` };
  const deviceId = match[2] as string;
  const body = parseJson(payload, deviceId);
  const ids = isRecord(body.end_device_ids) ? body.end_device_ids : {};
  const devEui = requireEui(ids.dev_eui, 'end_device_ids.dev_eui', deviceId);
  const time = parseTime(body.received_at, now, devEui);
  const down = match[4];
  if (down === undefined) {
    const up = isRecord(body.uplink_message) ? body.uplink_message : {};
    const rx = Array.isArray(up.rx_metadata) ? up.rx_metadata.filter(isRecord) : [];
    return {
      kind: 'uplink',
      deviceId,
      devEui,
      fCnt: requireCount(up.f_cnt ?? 0, 'uplink_message.f_cnt', devEui),
      fPort: requireCount(up.f_port ?? 0, 'uplink_message.f_port', devEui),
      bytes: parseBase64(up.frm_payload, 'uplink_message.frm_payload', devEui),
      object: isRecord(up.decoded_payload) ? up.decoded_payload : undefined,
      time: parseTime(up.received_at, time, devEui),
      radio: bestRadio(
        rx.map((r) => ({
          gatewayId: gatewayEui(r.gateway_ids),
          rssi: r.rssi ?? r.channel_rssi,
          snr: r.snr,
        })),
      ),
      spreadingFactor: spreadingFactor(
        isRecord(up.settings) && isRecord(up.settings.data_rate) ? up.settings.data_rate.lora : undefined,
        'spreading_factor',
      ),
    };
  }
  const inner = body[`downlink_${down}`];
  const nested = isRecord(inner) && isRecord(inner.downlink) ? inner.downlink : undefined;
  const correlation = [
    body.correlation_ids,
    isRecord(inner) ? inner.correlation_ids : [],
    nested?.correlation_ids,
  ]
    .flatMap((c) => (Array.isArray(c) ? c : []))
    .find((c): c is string => typeof c === 'string' && c.startsWith(CORRELATION_PREFIX));
  if (!correlation) return { kind: 'ignored', reason: `down/${down} of a downlink Heizplan did not send` };
  return {
    kind: 'downlink',
    devEui,
    downlinkId: correlation.slice(CORRELATION_PREFIX.length),
    state: DOWN_STATES[down] as DownlinkStatusEvent['state'],
    time,
  };
}

/** Gateway EUI from `gateway_ids.eui`, else the gateway id itself (lowercased). */
function gatewayEui(ids: unknown): string | undefined {
  if (!isRecord(ids)) return undefined;
  const id = typeof ids.eui === 'string' ? ids.eui : ids.gateway_id;
  return typeof id === 'string' ? id.toLowerCase() : undefined;
}

/** The `down/push` publish for `request` to TTS device `deviceId` in `app` (`{app}@{tenant}`). */
export function ttsDownlink(app: string, deviceId: string, request: DownlinkRequest): MqttMessage {
  return {
    topic: `v3/${app}/devices/${deviceId}/down/push`,
    payload: Buffer.from(
      JSON.stringify({
        downlinks: [
          {
            f_port: request.fPort,
            frm_payload: Buffer.from(request.bytes).toString('base64'),
            confirmed: request.confirmed,
            priority: 'NORMAL',
            correlation_ids: [`${CORRELATION_PREFIX}${request.id}`],
          },
        ],
      }),
    ),
  };
}

/** The TTS dialect for one application; `tenant` undefined for The Things Stack Open Source. */
export function ttsFormat(options: { appId: string; tenant?: string }): NetworkServerFormat {
  const app = options.tenant ? `${options.appId}@${options.tenant}` : options.appId;
  const deviceIds = new Map<string, string>();
  return {
    name: 'tts',
    subscriptions: [`v3/${app}/devices/+/up`, `v3/${app}/devices/+/down/+`],
    parse: (topic, payload) => {
      const { deviceId, ...event } = parseTts(topic, payload);
      if (event.kind === 'uplink' && deviceId) deviceIds.set(event.devEui, deviceId);
      return event as NsEvent;
    },
    downlink: (request) =>
      ttsDownlink(app, deviceIds.get(request.devEui) ?? `eui-${request.devEui}`, request),
  };
}
