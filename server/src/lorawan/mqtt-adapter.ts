/**
 * The MQTT side of the network-server integration: one mqtt.js client with a persistent session
 * (`clean: false`, fixed client id, QoS 1 subscriptions), feeding `UplinkIngest` and publishing
 * downlinks. The same code talks to the embedded broker and to Mosquitto/EMQX in front of
 * ChirpStack or The Things Stack.
 *
 * PUBACK after commit (docs/decisions, "ingest acknowledges after commit"): mqtt.js sends the
 * PUBACK when `handleMessage` calls back and processes packets strictly one at a time, so
 * calling back only after the database commit would make every batch one message long. Instead
 * `handleMessage` hands the message to the ingest and calls back at once, and the PUBACK that
 * mqtt.js then writes is held back until the ingest commits that message. A PUBACK is never
 * sent on a later connection than its PUBLISH came on: packet ids are per connection, so after
 * a reconnect the broker redelivers and the idempotent insert absorbs the repeat. The PUBACKs of
 * one commit are written corked, as one socket write instead of two small writes per message.
 */
import mqtt, { type IPublishPacket, type MqttClient } from 'mqtt';
import type { UplinkIngest } from './ingest.ts';
import type { MqttMessage, NetworkServerFormat } from './network-server.ts';

export interface AdapterLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface LorawanAdapterOptions {
  url: string;
  format: NetworkServerFormat;
  ingest: UplinkIngest;
  log: AdapterLogger;
  /**
   * Fixed, so the broker keeps the session (and queued uplinks) while Heizplan is down; a clean
   * publish-only client may leave it to mqtt.js (a random id).
   */
  clientId?: string;
  username?: string;
  password?: string;
  /**
   * Prepended to every subscribed and published topic (tests on a shared Mosquitto use a unique
   * one; ChirpStack's integration topics can carry a prefix too). Default ''.
   */
  topicPrefix?: string;
  /**
   * Topic filters to subscribe with QoS 1, prefix included. Default: the format's subscriptions
   * behind `topicPrefix`. A shared-subscription member passes them behind `$share/<group>/`;
   * a publish-only client passes none.
   */
  filters?: string[];
  /**
   * Filters to unsubscribe after connecting, instead of subscribing: adopting the session of an
   * instance that is gone, so the broker stops queueing for it while we take what it holds.
   */
  unsubscribe?: string[];
  /** Start without a session and keep none (a publish-only client). Default false. */
  clean?: boolean;
  /**
   * The broker had this session before (the registry knows it): a first connect that finds none
   * means the broker lost it, with what it had queued (its persistence is off or unwritable).
   */
  expectSession?: boolean;
  /** Above this many unacknowledged messages, reading from the socket pauses. Default 20 000. */
  maxBacklog?: number;
  reconnectPeriodMs?: number;
  /** Called after every successful (re)connect and subscribe. */
  onConnect?: () => void;
}

export interface LorawanAdapter {
  /**
   * Publishes with QoS 1; resolves once the broker has it (or it is queued while offline). With
   * `timeoutMs` it rejects after that long without the broker's PUBACK and takes the message out
   * of mqtt.js' store, so it is not sent later behind the caller's back.
   */
  publish(message: MqttMessage, timeoutMs?: number): Promise<void>;
  readonly connected: boolean;
  /** Messages taken from this connection whose PUBACK has not been released yet. */
  readonly unacked: number;
  /** Date.now() of the last message received or PUBACK released. */
  readonly lastActivityAt: number;
  /** Resolves after the first successful connect and subscribe. */
  ready: Promise<void>;
  /** Commits what is pending, sends its PUBACKs, disconnects. */
  close(): Promise<void>;
  /**
   * Disconnects without touching the ingest (shared with other sessions). `force` drops the
   * socket at once: PUBACKs still held are never sent, so the broker redelivers those messages.
   */
  disconnect(force?: boolean): Promise<void>;
}

type SendPacket = (packet: { cmd: string; messageId?: number }, cb?: (err?: Error) => void) => void;

export function startLorawanAdapter(options: LorawanAdapterOptions): LorawanAdapter {
  const prefix = options.topicPrefix ?? '';
  const maxBacklog = options.maxBacklog ?? 20_000;
  const client: MqttClient = mqtt.connect(options.url, {
    // aedes and The Things Stack speak MQTT 3.1.1 only; Mosquitto/EMQX accept it too.
    protocolVersion: 4,
    clean: options.clean ?? false,
    clientId: options.clientId,
    username: options.username,
    password: options.password,
    reconnectPeriod: options.reconnectPeriodMs ?? 1000,
    resubscribe: true,
  });

  // Connection generation: a PUBACK is only valid on the connection its PUBLISH arrived on.
  let generation = 0;
  client.on('close', () => {
    generation++;
  });
  const deferred = new Set<number>();
  const internals = client as unknown as { _sendPacket: SendPacket };
  if (typeof internals._sendPacket !== 'function') {
    throw new Error('mqtt.js internals changed: cannot defer PUBACKs until commit (see docs/decisions/0007)');
  }
  const sendPacket = internals._sendPacket.bind(client);
  internals._sendPacket = (packet, cb) => {
    if (packet.cmd === 'puback' && packet.messageId !== undefined && deferred.delete(packet.messageId)) {
      cb?.();
      return;
    }
    sendPacket(packet, cb);
  };

  // Acks of one batch are released in one synchronous loop: cork the socket until the loop ends.
  let corked = false;
  const corkUntilTick = () => {
    if (corked) return;
    const { stream } = client;
    stream.cork();
    corked = true;
    process.nextTick(() => {
      corked = false;
      stream.uncork();
    });
  };

  let resumeReading: (() => void) | undefined;
  let unacked = 0;
  let lastActivityAt = Date.now();
  client.handleMessage = (packet, callback) => {
    lastActivityAt = Date.now();
    const publish = packet as IPublishPacket;
    const topic = publish.topic.startsWith(prefix) ? publish.topic.slice(prefix.length) : publish.topic;
    const payload = Buffer.isBuffer(publish.payload) ? publish.payload : Buffer.from(publish.payload);
    let ack = () => {};
    if (publish.qos === 1 && publish.messageId !== undefined) {
      const { messageId } = publish;
      const received = generation;
      deferred.add(messageId);
      unacked++;
      ack = () => {
        unacked--;
        lastActivityAt = Date.now();
        if (generation === received && client.connected) {
          corkUntilTick();
          sendPacket({ cmd: 'puback', messageId });
        }
        if (options.ingest.backlog < maxBacklog) resumeReading?.();
      };
    }
    options.ingest.accept(topic, payload, ack);
    // Backpressure: stop taking packets off the socket while the database is behind.
    if (options.ingest.backlog >= maxBacklog) {
      resumeReading = () => {
        resumeReading = undefined;
        callback();
      };
    } else {
      callback();
    }
  };

  const filters = options.filters ?? options.format.subscriptions.map((t) => `${prefix}${t}`);
  const subscriptions = Object.fromEntries(filters.map((t) => [t, { qos: 1 as const }]));
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const connected = () => {
    markReady();
    options.onConnect?.();
  };
  let connectedBefore = false;
  client.on('connect', (connack) => {
    if (!options.clean && (connectedBefore || options.expectSession) && !connack.sessionPresent) {
      options.log.warn(
        { clientId: options.clientId },
        'MQTT broker lost this session: what it had queued for it is gone (is its persistence on?)',
      );
    }
    connectedBefore = true;
    // A client without a session reconnects on every restart; only sessions are worth a line.
    if (!options.clean) {
      options.log.info(
        { url: redact(options.url), clientId: options.clientId, sessionPresent: connack.sessionPresent },
        'MQTT connected',
      );
    }
    // The ack ends the subscription at the broker; messages it had queued still arrive.
    if (options.unsubscribe) {
      client.unsubscribe(options.unsubscribe, (err) => {
        if (err) options.log.error({ err }, 'MQTT unsubscribe failed');
        else connected();
      });
      return;
    }
    if (filters.length === 0) return connected();
    // Mosquitto 2.0.11 restores a persistent session's shared subscriptions after a restart in a
    // state that matches nothing, and subscribing again does not repair it; unsubscribing first
    // does (docs/decisions/0034). Both packets go out back to back, so the session is out of its
    // group for one round of the broker's loop at most.
    const shared = filters.filter((filter) => filter.startsWith('$share/'));
    if (connack.sessionPresent && shared.length > 0) client.unsubscribe(shared);
    // Subscribing again on a present session is harmless and covers a broker that lost it.
    client.subscribe(subscriptions, (err, granted) => {
      if (err) options.log.error({ err }, 'MQTT subscribe failed');
      else {
        // The Things Stack's MQTT server grants QoS 0 only: uplinks then arrive without PUBACK
        // and are lost if Heizplan is down or stops before the commit. Say so once per connect.
        const downgraded = (granted ?? []).filter((g) => g.qos !== 1).map((g) => `${g.topic} (QoS ${g.qos})`);
        if (downgraded.length > 0) {
          options.log.warn(
            { downgraded },
            'MQTT broker did not grant QoS 1: uplinks on these topics are not redelivered after an outage',
          );
        }
        connected();
      }
    });
  });
  client.on('error', (err) => options.log.warn({ err: err.message }, 'MQTT client error'));
  client.on('offline', () => options.log.warn({ url: redact(options.url) }, 'MQTT offline; reconnecting'));

  return {
    publish: ({ topic, payload }, timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const done = (err?: Error) => {
          clearTimeout(timer);
          if (err) reject(err);
          else resolve();
        };
        client.publish(`${prefix}${topic}`, payload, { qos: 1 }, done);
        if (timeoutMs === undefined) return;
        timer = setTimeout(() => {
          const { outgoing } = client as unknown as { outgoing: Record<string, { cb: unknown }> };
          const messageId = Object.keys(outgoing).find((id) => outgoing[id]?.cb === done);
          // removeOutgoingMessage calls `done` with "Message removed".
          if (messageId !== undefined) client.removeOutgoingMessage(Number(messageId));
          else done(new Error('MQTT publish timed out'));
        }, timeoutMs);
      }),
    get connected() {
      return client.connected;
    },
    get unacked() {
      return unacked;
    },
    get lastActivityAt() {
      return lastActivityAt;
    },
    ready,
    close: async () => {
      await options.ingest.close();
      await client.endAsync();
    },
    disconnect: async (force = false) => {
      await client.endAsync(force);
    },
  };
}

const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');
