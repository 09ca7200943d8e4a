/**
 * The persistent MQTT sessions one instance takes uplinks through (docs/decisions/0032), leased
 * in `mqtt_sessions` so that no two instances ever connect with the same client id.
 *
 * - **Home session.** With a share group every instance holds one member session
 *   `<MQTT_CLIENT_ID>-<n>` subscribing `$share/<group>/…`: the broker spreads uplinks over the
 *   members. Without one (embedded broker, The Things Stack) there is one plain session
 *   `<MQTT_CLIENT_ID>` for the deployment; the instance holding it consumes, the others stand by
 *   and take it over when its lease runs out.
 * - **Adoption.** Mosquitto keeps routing a share of the uplinks to a member whose client is gone
 *   for good (persistent session) and keeps what it had in flight there. An instance with a home
 *   session therefore adopts any session whose lease ran out while it still subscribes: it
 *   connects with that client id, unsubscribes (the broker stops queueing for it), ingests what
 *   was queued, and records the session as ended once nothing arrived for `idleMs`. A member
 *   session is not discarded at the broker: if anything arrived late, the next instance to claim
 *   that member number resumes it.
 * - **Leases.** Renewed every `roundMs`; when renewing fails (database away) the sessions are
 *   dropped before the lease can run out by the database's clock, because from then on another
 *   instance may connect with the same client id and the broker would hand it back and forth.
 *   Until a claim completes again the instance reports `paused`, not `standby`: it does not know
 *   whether another instance holds the session. Messages taken but not committed are then
 *   redelivered to the next holder; the idempotent insert absorbs repeats (0007).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { UplinkState } from '@heizplan/contracts/health';
import type { Db } from '../db/client.ts';
import type { UplinkIngest } from './ingest.ts';
import { type AdapterLogger, type LorawanAdapter, startLorawanAdapter } from './mqtt-adapter.ts';
import {
  claimMember,
  claimOrphan,
  claimPlain,
  endSession,
  registerSession,
  releaseLeases,
  renewLeases,
} from './mqtt-sessions.repository.ts';
import type { NetworkServerFormat } from './network-server.ts';

export interface MqttSessionsOptions {
  db: Db;
  url: string;
  format: NetworkServerFormat;
  /** Shared by every session of this instance; closed by `close()`. */
  ingest: UplinkIngest;
  log: AdapterLogger;
  /** MQTT_CLIENT_ID: the plain session's id, or the base of the members' ids. */
  clientId: string;
  /** MQTT_SHARE_GROUP; undefined = one plain session for the deployment. */
  shareGroup?: string;
  /** The broker lives in this process (embedded), so no one else can hold the plain session. */
  takeOver?: boolean;
  username?: string;
  password?: string;
  /** Prepended to every topic (tests on a shared broker). */
  topicPrefix?: string;
  reconnectPeriodMs?: number;
  /** Lease length (ms); default 30 000. */
  leaseMs?: number;
  /** Period of renewing, claiming and adopting (ms); default 5 000. */
  roundMs?: number;
  /** An adopted session is empty after this long without a message (ms); default 2 000. */
  idleMs?: number;
}

interface Session {
  clientId: string;
  adapter: LorawanAdapter;
  /** Adopted sessions: Date.now() when the broker confirmed the unsubscribe. */
  unsubscribedAt?: number;
}

export class MqttSessions {
  /** This process in the registry's `holder` column. */
  readonly instanceId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private home: Session | undefined;
  private adopted: Session | undefined;
  /** Local Date.now() until which the leases are ours whatever the database says. */
  private validUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private closed = false;
  /** The leases were given up, or the last claim failed, for want of the database. */
  private databaseAway = false;
  private readonly leaseMs: number;
  private readonly roundMs: number;
  private readonly idleMs: number;

  constructor(private readonly options: MqttSessionsOptions) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.roundMs = options.roundMs ?? 5_000;
    this.idleMs = options.idleMs ?? 2_000;
  }

  /** Topic filters without a share group, as a single instance subscribed before 0032. */
  private get plainFilters(): string[] {
    const prefix = this.options.topicPrefix ?? '';
    return this.options.format.subscriptions.map((topic) => `${prefix}${topic}`);
  }

  private get homeFilters(): string[] {
    const group = this.options.shareGroup;
    return group ? this.plainFilters.map((filter) => `$share/${group}/${filter}`) : this.plainFilters;
  }

  /** The client id of the session uplinks come through; undefined while standing by. */
  get homeClientId(): string | undefined {
    return this.home?.clientId;
  }

  /**
   * `consuming`: the home session is connected; `standby`: another instance holds the plain
   * session; `disconnected`: this instance holds its session but the broker is unreachable;
   * `paused`: it holds none because the database did not answer — it dropped its sessions when
   * their lease could not be renewed, or its last claim failed — so it cannot tell who consumes.
   */
  get state(): UplinkState {
    if (!this.home) return this.databaseAway ? 'paused' : 'standby';
    return this.home.adapter.connected ? 'consuming' : 'disconnected';
  }

  /** Runs the first round (claiming a session when one is free), then one every `roundMs`. */
  async start(): Promise<void> {
    if (this.options.shareGroup) {
      // A deployment that ran one instance before kept a plain session; end it like an orphan.
      await registerSession(this.options.db, this.options.clientId, this.plainFilters);
    }
    await this.runRound();
    this.timer = setInterval(() => {
      this.watchdog();
      void this.runRound();
    }, this.roundMs);
  }

  /** Commits what was taken, sends its PUBACKs, disconnects and frees the leases. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.round;
    const sessions = [this.home, this.adopted].filter((s): s is Session => s !== undefined);
    this.home = undefined;
    this.adopted = undefined;
    await this.options.ingest.close();
    for (const session of sessions) await session.adapter.disconnect();
    await releaseLeases(
      this.options.db,
      this.instanceId,
      sessions.map((s) => s.clientId),
    ).catch((err: unknown) => this.options.log.warn({ err }, 'MQTT session leases not released'));
  }

  private runRound(): Promise<void> {
    this.round ??= this.roundOnce()
      .catch((err: unknown) => this.options.log.error({ err }, 'MQTT session round failed'))
      .finally(() => {
        this.round = undefined;
      });
    return this.round;
  }

  private async roundOnce() {
    await this.renew();
    if (!this.home && !this.closed) {
      try {
        await this.claimHome();
        this.databaseAway = false;
      } catch (err) {
        this.databaseAway = true;
        throw err;
      }
    }
    if (this.home && !this.adopted && !this.closed) await this.adoptOrphan();
    if (this.adopted) await this.endAdoptedWhenIdle(this.adopted);
  }

  /** Drops every session once its lease may have run out: a renewal can hang with the database. */
  private watchdog() {
    if ((this.home || this.adopted) && Date.now() >= this.validUntil - this.roundMs) {
      this.options.log.warn({}, 'MQTT session leases could not be renewed; disconnecting until they are');
      this.databaseAway = true;
      void this.drop(this.home);
      void this.drop(this.adopted);
    }
  }

  private async drop(session: Session | undefined) {
    if (!session) return;
    if (this.home === session) this.home = undefined;
    if (this.adopted === session) this.adopted = undefined;
    await session.adapter.disconnect(true);
  }

  private async renew() {
    const held = [this.home, this.adopted].filter((s): s is Session => s !== undefined);
    if (held.length === 0) return;
    const started = Date.now();
    try {
      const kept = new Set(
        await renewLeases(
          this.options.db,
          this.instanceId,
          held.map((s) => s.clientId),
          this.leaseMs,
        ),
      );
      this.validUntil = started + this.leaseMs;
      for (const session of held) {
        if (kept.has(session.clientId)) continue;
        this.options.log.warn({ clientId: session.clientId }, 'MQTT session lease lost');
        await this.drop(session);
      }
    } catch (err) {
      this.options.log.warn({ err }, 'MQTT session leases not renewed');
      this.watchdog();
    }
  }

  private async claimHome() {
    const { db, clientId: base, shareGroup, takeOver = false } = this.options;
    const started = Date.now();
    const filters = this.homeFilters;
    const holder = this.instanceId;
    const claimed = shareGroup
      ? await claimMember(db, { holder, base, filters, leaseMs: this.leaseMs })
      : await claimPlain(db, { holder, clientId: base, filters, leaseMs: this.leaseMs, takeOver }).then(
          (plain) => plain && { clientId: base, existed: plain.existed },
        );
    if (!claimed) return;
    const { clientId } = claimed;
    this.validUntil = started + this.leaseMs;
    // The embedded broker keeps no sessions across restarts; an external one should.
    this.home = {
      clientId,
      adapter: this.connect(clientId, { filters, expectSession: claimed.existed && !takeOver }),
    };
    this.options.log.info({ clientId }, 'taking uplinks through this MQTT session');
  }

  private async adoptOrphan() {
    const home = this.home as Session;
    const orphan = await claimOrphan(this.options.db, {
      holder: this.instanceId,
      except: [home.clientId],
      leaseMs: this.leaseMs,
    });
    if (!orphan) return;
    this.options.log.info(
      { clientId: orphan.clientId },
      'adopting the MQTT session of an instance that is gone, to take what the broker queued for it',
    );
    const session: Session = {
      clientId: orphan.clientId,
      adapter: this.connect(orphan.clientId, { unsubscribe: orphan.filters }),
    };
    void session.adapter.ready.then(() => {
      session.unsubscribedAt = Date.now();
    });
    this.adopted = session;
  }

  private async endAdoptedWhenIdle(session: Session) {
    const { adapter } = session;
    if (session.unsubscribedAt === undefined || !adapter.connected || adapter.unacked > 0) return;
    const quietSince = Math.max(adapter.lastActivityAt, session.unsubscribedAt);
    if (Date.now() - quietSince < this.idleMs) return;
    this.adopted = undefined;
    await adapter.disconnect();
    await endSession(this.options.db, this.instanceId, session.clientId);
    this.options.log.info({ clientId: session.clientId }, 'adopted MQTT session emptied and ended');
  }

  private connect(
    clientId: string,
    extra: { filters?: string[]; unsubscribe?: string[]; expectSession?: boolean },
  ): LorawanAdapter {
    const { url, format, ingest, log, username, password, topicPrefix, reconnectPeriodMs } = this.options;
    return startLorawanAdapter({
      url,
      format,
      ingest,
      log,
      clientId,
      username,
      password,
      topicPrefix,
      reconnectPeriodMs,
      ...extra,
    });
  }
}
