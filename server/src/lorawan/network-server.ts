/**
 * What Heizplan needs from a LoRaWAN network server, independent of its MQTT dialect: the events
 * it publishes, parsed into `NsEvent`s, and how to enqueue a downlink. ChirpStack v4
 * (`chirpstack.ts`) and The Things Stack v3 (`tts.ts`) implement `NetworkServerFormat` as pure
 * functions, so every topic and JSON rule is unit-tested without a broker.
 * DevEUIs are always lowercase hex here (ChirpStack prints lowercase, The Things Stack uppercase).
 */

/** Signal quality of the best receiving gateway for one uplink. */
export interface RadioInfo {
  /** dBm */
  rssi?: number;
  /** dB */
  snr?: number;
  gatewayIds: string[];
}

export interface UplinkEvent {
  kind: 'uplink';
  devEui: string;
  /** Uplink frame counter. */
  fCnt: number;
  fPort: number;
  /** Decrypted FRMPayload; empty when the uplink carried none (MAC-only frame). */
  bytes: Uint8Array;
  /** The network server's own decoded object, when a codec is configured there. */
  object?: Record<string, unknown>;
  /** Time the network server received the uplink, UTC. */
  time: Date;
  /** The network server's deduplication id (ChirpStack) when it has one. */
  deduplicationId?: string;
  radio: RadioInfo;
  /** LoRa spreading factor (7…12) the uplink arrived with; absent when the server does not say (FSK, LR-FHSS). */
  spreadingFactor?: number;
}

/** Device status answer (ChirpStack `DevStatusAns`): battery in %, absent when unavailable. */
export interface DeviceStatusEvent {
  kind: 'status';
  devEui: string;
  batteryPercent?: number;
  time: Date;
}

/** Progress of a downlink that Heizplan enqueued, correlated by the id Heizplan gave it. */
export interface DownlinkStatusEvent {
  kind: 'downlink';
  devEui: string;
  downlinkId: string;
  /** sent = handed to a gateway (txack); acknowledged/failed = the device confirmed or it gave up. */
  state: 'queued' | 'sent' | 'acknowledged' | 'failed';
  gatewayId?: string;
  time: Date;
}

/** A gateway was heard from (stats) or reported its connection state. */
export interface GatewayEvent {
  kind: 'gateway';
  gatewayEui: string;
  time: Date;
  online: boolean;
}

/** A message on a subscribed topic that carries nothing Heizplan uses (join, log, location…). */
export interface IgnoredEvent {
  kind: 'ignored';
  reason: string;
}

export type NsEvent = UplinkEvent | DeviceStatusEvent | DownlinkStatusEvent | GatewayEvent | IgnoredEvent;

/** A downlink as Heizplan asks for it; `id` is Heizplan's downlink row id, echoed back in events. */
export interface DownlinkRequest {
  id: string;
  devEui: string;
  fPort: number;
  bytes: Uint8Array;
  confirmed: boolean;
}

export interface MqttMessage {
  topic: string;
  payload: Buffer;
}

/** Thrown by a parser for a message on a subscribed topic that does not have the expected shape. */
export class FrameError extends Error {
  constructor(
    message: string,
    /** The DevEUI or gateway id when the topic already told us, for per-device log throttling. */
    public readonly source?: string,
  ) {
    super(message);
    this.name = 'FrameError';
  }
}

export interface NetworkServerFormat {
  name: 'chirpstack' | 'tts';
  /** Topic filters to subscribe with QoS 1. */
  subscriptions: string[];
  /** @throws FrameError for malformed JSON or a payload missing required fields. */
  parse(topic: string, payload: Buffer): NsEvent;
  /** The publish that enqueues `request` at the network server. */
  downlink(request: DownlinkRequest): MqttMessage;
}

/** Parses JSON, turning a syntax error into a FrameError. */
export function parseJson(payload: Buffer, source?: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(payload.toString('utf8'));
  } catch {
    throw new FrameError('payload is not JSON', source);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FrameError('payload is not a JSON object', source);
  }
  return value as Record<string, unknown>;
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A 16-hex-digit EUI-64, normalised to lowercase. @throws FrameError otherwise. */
export function requireEui(value: unknown, what: string, source?: string): string {
  if (typeof value !== 'string' || !/^[0-9a-fA-F]{16}$/.test(value)) {
    throw new FrameError(`${what} is not a 16-digit hex EUI`, source);
  }
  return value.toLowerCase();
}

/** Non-negative integer (counters, ports). @throws FrameError otherwise. */
export function requireCount(value: unknown, what: string, source?: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new FrameError(`${what} is missing or not a non-negative integer`, source);
  }
  return value;
}

/** RFC 3339 timestamp → Date; `fallback` when absent. @throws FrameError when present but invalid. */
export function parseTime(value: unknown, fallback: Date, source?: string): Date {
  if (value === undefined || value === null) return fallback;
  const date = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) throw new FrameError('time is not an RFC 3339 timestamp', source);
  return date;
}

/** Base64 → bytes; absent means an empty payload. @throws FrameError for non-base64 text. */
export function parseBase64(value: unknown, what: string, source?: string): Uint8Array {
  if (value === undefined || value === null || value === '') return new Uint8Array();
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) {
    throw new FrameError(`${what} is not base64`, source);
  }
  return new Uint8Array(Buffer.from(value, 'base64'));
}

const finite = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Picks the strongest reception (highest RSSI) from per-gateway metadata. */
export function bestRadio(receptions: { gatewayId?: string; rssi?: unknown; snr?: unknown }[]): RadioInfo {
  let best: { rssi?: number; snr?: number } = {};
  for (const r of receptions) {
    const rssi = finite(r.rssi);
    if (rssi !== undefined && (best.rssi === undefined || rssi > best.rssi)) {
      best = { rssi, snr: finite(r.snr) };
    }
  }
  const gatewayIds = receptions.map((r) => r.gatewayId).filter((g): g is string => typeof g === 'string');
  return { ...best, gatewayIds };
}

/**
 * The spreading factor in a network server's LoRa modulation object (ChirpStack
 * `txInfo.modulation.lora.spreadingFactor`, The Things Stack `settings.data_rate.lora.spreading_factor`);
 * undefined unless it is a whole number 5…12.
 */
export function spreadingFactor(lora: unknown, key: string): number | undefined {
  if (typeof lora !== 'object' || lora === null) return undefined;
  const sf = (lora as Record<string, unknown>)[key];
  return typeof sf === 'number' && Number.isInteger(sf) && sf >= 5 && sf <= 12 ? sf : undefined;
}
