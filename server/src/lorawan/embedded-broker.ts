/**
 * The in-process MQTT broker used when no MQTT_URL is configured (docs/architecture.md): aedes on
 * loopback, 127.0.0.1:1883 when free, otherwise a free port the OS picks (a developer machine
 * often runs Mosquitto on 1883 already). The adapter connects to `url` over real TCP MQTT,
 * exactly as it would to Mosquitto. aedes speaks MQTT 3.1.1 only, so clients use
 * `protocolVersion: 4`.
 *
 * `restart()` stops the listener and the broker, then starts a new broker on the same port with
 * the same session store, so persistent sessions and queued QoS 1 messages survive it the way
 * they survive a Mosquitto restart with persistence on (used by the no-loss tests). The store is
 * in memory: it does not outlive the process.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';

export interface EmbeddedBroker {
  /** mqtt://127.0.0.1:<port> */
  url: string;
  port: number;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface EmbeddedBrokerOptions {
  host?: string;
  /** Preferred port; 0 = any free port. Default 1883, falling back to a free one when taken. */
  port?: number;
}

/** Starts the broker. @throws when the loopback listener cannot be opened at all. */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions = {}): Promise<EmbeddedBroker> {
  const host = options.host ?? '127.0.0.1';
  let broker = await Aedes.createBroker();
  // Not in aedes' typings, but the documented default store it creates when given none.
  const { persistence } = broker as unknown as { persistence: unknown };
  let server = await listen(broker, host, options.port ?? 1883).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EADDRINUSE') throw err;
    return listen(broker, host, 0);
  });
  const port = (server.address() as { port: number }).port;

  const stop = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await closed;
  };

  return {
    url: `mqtt://${host}:${port}`,
    port,
    restart: async () => {
      await stop();
      broker = await Aedes.createBroker({ persistence });
      server = await listen(broker, host, port);
    },
    close: stop,
  };
}

async function listen(broker: Aedes, host: string, port: number): Promise<Server> {
  const server = createServer(broker.handle);
  server.listen(port, host);
  // events.once rejects with the 'error' event (e.g. EADDRINUSE) instead of hanging.
  await once(server, 'listening');
  return server;
}
