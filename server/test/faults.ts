/**
 * Fault injection for the outage tests (issue 16, decision 0034): a TCP proxy a test puts between
 * the app and PostgreSQL or the broker and can cut and restore — the machine's shared services
 * are never stopped — and a private Mosquitto on a free port that a test may restart.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  /** Drops every connection at once and refuses new ones (reset) until `restore`. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port forwarding to `host:port`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let cut = false;
  const server: Server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = tcpConnect(target.port, target.host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      // A cut connection errors on both ends; the app under test sees it, the proxy need not.
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const cutAll = () => {
    cut = true;
    for (const socket of open) socket.destroy();
  };
  return {
    port,
    via(url) {
      const rewritten = new URL(url);
      rewritten.hostname = '127.0.0.1';
      rewritten.port = String(port);
      return rewritten.toString();
    },
    cut: cutAll,
    restore() {
      cut = false;
    },
    async close() {
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Host and port of an URL such as TEST_DATABASE_URL or TEST_MQTT_URL. */
export function endpointOf(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || defaultPort) };
}

const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto', '/usr/local/sbin/mosquitto'].find((p) =>
  existsSync(p),
);

/** Whether a private Mosquitto can be started here (the binary is installed). */
export const mosquittoAvailable = MOSQUITTO !== undefined;

export interface PrivateMosquitto {
  url: string;
  /** Stops the broker (SIGTERM: it saves its sessions and queues) and starts it again. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts Mosquitto on a free port with persistence in a temporary folder and the limits the
 * README asks of production (`max_queued_messages 0`, `max_inflight_messages 0`).
 */
export async function startPrivateMosquitto(): Promise<PrivateMosquitto> {
  if (!MOSQUITTO) throw new Error('mosquitto is not installed');
  const dir = await mkdtemp(path.join(tmpdir(), 'heizplan-mosquitto-'));
  // Started as root, Mosquitto drops to its own user; it must still be able to save its database
  // there, or a restart loses every session (and the test would measure that instead).
  await chmod(dir, 0o777);
  const port = await freePort();
  const conf = path.join(dir, 'mosquitto.conf');
  await writeFile(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence true',
      `persistence_location ${dir}/`,
      'max_queued_messages 0',
      'max_inflight_messages 0',
      '',
    ].join('\n'),
  );
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(MOSQUITTO, ['-c', conf], { stdio: 'ignore' });
    await waitForPort(port);
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    // Mosquitto saves its sessions on SIGTERM; one that has not exited after 10 s is killed, and
    // the test that restarts it then fails on lost sessions rather than hanging.
    const killer = setTimeout(() => {
      process.stderr.write('teardown: Mosquitto did not stop within 10 s of SIGTERM; killing it\n');
      running.kill('SIGKILL');
    }, 10_000);
    await exited;
    clearTimeout(killer);
  };
  await start();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    restart: async () => {
      await stop();
      await start();
    },
    close: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForPort(port: number) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const connected = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (connected) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on port ${port}`);
}
