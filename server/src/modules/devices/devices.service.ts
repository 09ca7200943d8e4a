/**
 * Device registry rules (spec §3–§5): members of a company list, register, assign and
 * remove its devices. A DevEUI belongs to one company only (409 otherwise); an unknown unit is
 * 404 'Unknown unit'; an unknown device 404 'Device not found.'; the AppKey is stored encrypted
 * and never returned. Licences (modules/billing/licences.ts): a device is registered only
 * while a licence is free, a device is assigned to a unit only while every device has one, and
 * the last device cannot be deleted unless the subscription is cancelled (409 each).
 */

import type {
  Device,
  DeviceCreateSchema,
  DeviceExportQuerySchema,
  DeviceListQuerySchema,
  DeviceUpdateSchema,
} from '@heizplan/contracts/devices';
import type { z } from 'zod';
import { requireMember } from '../../auth/membership.ts';
import { type Clock, systemClock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { findCompanyHeating } from '../../heating/inputs.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { type TableExport, tableExport } from '../../http/table-export.ts';
import { getCodec, listCodecs } from '../../lorawan/codecs/registry.ts';
import { deviceConfigStates } from '../../lorawan/device-config.repository.ts';
import { configSummary } from '../../lorawan/device-config.ts';
import { antiFreezeSupport } from '../../lorawan/device-settings.ts';
import { type LatestDownlink, latestDownlinks } from '../../lorawan/downlink-status.repository.ts';
import type { LicencePolicy } from '../billing/licences.ts';
import type { AppKeyCipher } from './app-key-cipher.ts';
import { batteryTrend } from './battery-trend.ts';
import * as repo from './devices.repository.ts';
import { networkServerExport } from './network-server-export.ts';

// What other modules may use of this module's queries: they import it from here, never from
// the repository, so the module keeps its queries private and decides what leaves it.
export { countDevices, findDevice } from './devices.repository.ts';

export interface DevicesServiceDeps {
  db: Db;
  /** Resolves the AppKey cipher (the key may be read from disk on first use). */
  cipher: () => Promise<AppKeyCipher>;
  licences: LicencePolicy;
  /**
   * Told of devices that just got a unit (registered with one, assigned or moved), so their
   * unit's setpoint is queued now rather than at the LoRaWAN side's next reconcile.
   */
  assigned?: (deviceIds: string[]) => void;
  /** Each device's daily airtime budget, ms (lorawan/airtime.ts). */
  airtimeBudgetMs: number;
  /** Now (UTC) for battery trends and last-seen ages; default the machine's clock. */
  now?: Clock;
}

/** A device whose row went between listing and reading its configuration. */
const NO_CONFIG_STATE = {
  desired: null,
  reported: {},
  spreadingFactor: null,
  uplinkBytes: null,
  downlinkBytesToday: [],
  profileId: null,
  profileName: null,
};

/** Sent when a device would have no licence; the web links it to settings → billing. */
const NO_LICENCE = 'Every licence is in use. Buy more licences in settings → billing before adding a device.';
const UNLICENSED =
  'This company has more devices than licences. Buy licences in settings → billing before assigning devices.';

const DEVICE_NOT_FOUND = 'Device not found.';
const UNKNOWN_UNIT = 'Unknown unit';
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * `record` as the API answers it, with its latest setpoint downlink (latestDownlinks) and its
 * configuration and airtime (lorawan/device-config.ts) and its battery trend (battery-trend.ts).
 */
export function toDeviceResponse(
  { device: d, unitName, buildingId, buildingName, floor, creatorName }: repo.DeviceRecord,
  downlink: LatestDownlink | undefined,
  summary: Pick<Device, 'config' | 'airtime' | 'batteryTrend'>,
): Device {
  return {
    ...summary,
    id: d.id,
    protocol: d.protocol,
    devEui: d.devEui,
    joinEui: d.joinEui,
    model: d.model as Device['model'],
    appKeySet: d.appKeyEncrypted !== null,
    appKeyLast4: d.appKeyLast4,
    unitId: d.unitId,
    unitName,
    buildingId,
    buildingName,
    floor,
    createdAt: d.createdAt.toISOString(),
    createdBy: d.createdBy ? { id: d.createdBy, name: creatorName ?? '' } : null,
    lastSeen: iso(d.lastSeen),
    battery: d.battery !== null && d.batteryUnit ? { value: d.battery, unit: d.batteryUnit } : null,
    lastRssi: d.lastRssi,
    lastSnr: d.lastSnr,
    firmware: d.firmware,
    antiFreeze: d.antiFreeze,
    antiFreezeSupport: antiFreezeSupport(getCodec(d.model), d.firmware),
    // A relay's commands carry no setpoint; the field shows setpoint downlinks only.
    downlink:
      downlink && downlink.state !== 'superseded' && downlink.setpoint !== null
        ? {
            setpoint: downlink.setpoint,
            state: downlink.state,
            queuedAt: downlink.createdAt.toISOString(),
            updatedAt: downlink.updatedAt.toISOString(),
          }
        : null,
  };
}

/** PostgreSQL unique violation: a concurrent registration of the same DevEUI won the race. */
const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';

const alreadyRegistered = (id: string) =>
  conflict(`The device ${id} is already registered; a DevEUI can belong to one company only.`, {
    code: 'device_taken',
    params: { id },
  });

const EXPORT_PAGE = 500;
const EXPORT_HEADERS = {
  de: [
    'DevEUI',
    'JoinEUI',
    'Modell',
    'Raum',
    'Gebäude',
    'Geschoss',
    'Zuletzt gesehen',
    'Batterie',
    'Batterie-Einheit',
    'RSSI (dBm)',
    'SNR (dB)',
    'Firmware',
    'Angelegt',
  ],
  en: [
    'dev_eui',
    'join_eui',
    'model',
    'unit',
    'building',
    'floor',
    'last_seen',
    'battery',
    'battery_unit',
    'rssi_dbm',
    'snr_db',
    'firmware',
    'created_at',
  ],
};

export class DevicesService {
  constructor(private readonly deps: DevicesServiceDeps) {}

  async list(userId: string, companyId: string, query: z.output<typeof DeviceListQuerySchema>) {
    await requireMember(this.deps.db, userId, companyId, 'read');
    return { ...(await this.page(companyId, query)), page: query.page, size: query.size };
  }

  /** One page of the devices `query` matches, as the API answers them; membership checked by the caller. */
  private async page(companyId: string, query: z.output<typeof DeviceListQuerySchema>) {
    const { rows, count } = await repo.listDevices(this.deps.db, companyId, {
      ...query,
      unassigned: query.unassigned === undefined ? undefined : query.unassigned === 'true',
      models: query.kind ? listCodecs().flatMap((c) => (c.kind === query.kind ? [c.model] : [])) : undefined,
    });
    return { results: await this.responses(companyId, rows), count };
  }

  /**
   * The devices the filters match as CSV or XLSX (`http/table-export.ts`), in the list's order,
   * 500 at a time:
   * DevEUI, JoinEUI, model, unit, building, floor, last seen, battery and its unit, RSSI, SNR,
   * firmware, registered; or, as `tts`/`chirpstack`, a network server's import file
   * (`network-server-export.ts`). Never the AppKey.
   * @throws HttpError 404 for a stranger.
   */
  async export(
    userId: string,
    companyId: string,
    query: z.output<typeof DeviceExportQuerySchema>,
  ): Promise<TableExport> {
    await requireMember(this.deps.db, userId, companyId, 'read');
    const { format, lang, ...filters } = query;
    const page = (n: number) => this.page(companyId, { ...filters, page: n, size: EXPORT_PAGE });
    async function* devices() {
      for (let n = 1; ; n++) {
        const { results } = await page(n);
        yield* results;
        if (results.length < EXPORT_PAGE) return;
      }
    }
    if (format === 'tts' || format === 'chirpstack') return networkServerExport(format, devices());
    const timeZone = (await findCompanyHeating(this.deps.db, companyId))?.timeZone ?? 'Europe/Berlin';
    async function* rows() {
      for await (const d of devices())
        yield [
          d.devEui ?? d.id,
          d.joinEui,
          d.model,
          d.unitName,
          d.buildingName,
          d.floor,
          d.lastSeen ? new Date(d.lastSeen) : null,
          d.battery?.value,
          d.battery?.unit,
          d.lastRssi,
          d.lastSnr,
          d.firmware,
          new Date(d.createdAt),
        ];
    }
    return tableExport(rows(), EXPORT_HEADERS[lang], { format, timeZone });
  }

  async get(userId: string, companyId: string, id: string): Promise<Device> {
    await requireMember(this.deps.db, userId, companyId, 'read');
    return this.response(companyId, await this.require(companyId, id));
  }

  /** Lookup for /assign; any malformed DevEUI is simply not found. */
  async getByEui(userId: string, companyId: string, devEui: string): Promise<Device> {
    await requireMember(this.deps.db, userId, companyId, 'read');
    const row = await repo.findDeviceByEui(this.deps.db, companyId, devEui.trim().toLowerCase());
    if (!row) throw notFound(DEVICE_NOT_FOUND, { code: 'device_not_found' });
    return this.response(companyId, row);
  }

  async create(
    userId: string,
    companyId: string,
    body: z.output<typeof DeviceCreateSchema>,
  ): Promise<Device> {
    const { db } = this.deps;
    await requireMember(db, userId, companyId, 'operate');
    if (body.unitId) await this.requireUnit(companyId, body.unitId);
    if (await repo.deviceIdTaken(db, body.id)) throw alreadyRegistered(body.id);
    const cipher = await this.deps.cipher();
    try {
      await db.transaction(async (tx) => {
        // Serialised per company, so two registrations cannot both take the last licence.
        await repo.lockCompanyDevices(tx, companyId);
        const usable = await this.deps.licences.usable(tx, companyId);
        if (usable !== null && (await repo.countDevices(tx, companyId)) >= usable) {
          throw conflict(NO_LICENCE, { code: 'licences_exhausted' });
        }
        await repo.insertDevice(tx, {
          id: body.id,
          companyId,
          protocol: body.protocol,
          devEui: body.protocol === 'lorawan' ? body.id : null,
          joinEui: body.joinEui ?? null,
          model: body.model,
          unitId: body.unitId ?? null,
          createdBy: userId,
          ...(body.appKey
            ? { appKeyEncrypted: cipher.encrypt(body.appKey, body.id), appKeyLast4: body.appKey.slice(-4) }
            : {}),
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyRegistered(body.id);
      throw error;
    }
    if (body.unitId) this.deps.assigned?.([body.id]);
    return this.response(companyId, await this.require(companyId, body.id));
  }

  /** Assigns to a unit (`unitId`), unassigns (`unitId: null`), changes model, AppKey or JoinEUI. */
  async update(
    userId: string,
    companyId: string,
    id: string,
    patch: z.output<typeof DeviceUpdateSchema>,
  ): Promise<Device> {
    const { db } = this.deps;
    await requireMember(db, userId, companyId, 'operate');
    const current = await this.require(companyId, id);
    if (patch.unitId) {
      await this.requireUnit(companyId, patch.unitId);
      const usable = await this.deps.licences.usable(db, companyId);
      if (usable !== null && (await repo.countDevices(db, companyId)) > usable)
        throw conflict(UNLICENSED, { code: 'devices_unlicensed' });
    }
    const cipher = patch.appKey ? await this.deps.cipher() : undefined;
    await repo.updateDevice(db, companyId, id, {
      ...(patch.model !== undefined ? { model: patch.model } : {}),
      // What another model's firmware answered says nothing about this one: it is asked again.
      ...(patch.model !== undefined && patch.model !== current.device.model
        ? { firmware: null, antiFreeze: null }
        : {}),
      ...(patch.joinEui !== undefined ? { joinEui: patch.joinEui } : {}),
      ...(patch.unitId !== undefined ? { unitId: patch.unitId } : {}),
      ...(patch.appKey && cipher
        ? { appKeyEncrypted: cipher.encrypt(patch.appKey, id), appKeyLast4: patch.appKey.slice(-4) }
        : {}),
    });
    if (patch.unitId) this.deps.assigned?.([id]);
    return this.response(companyId, await this.require(companyId, id));
  }

  async remove(userId: string, companyId: string, id: string): Promise<void> {
    await requireMember(this.deps.db, userId, companyId, 'operate');
    await this.deps.db.transaction(async (tx) => {
      // Serialise deletions per company so two concurrent deletes cannot both remove "not the last" device.
      await repo.lockCompanyDevices(tx, companyId);
      if (!(await repo.findDevice(tx, companyId, id))) {
        throw notFound(DEVICE_NOT_FOUND, { code: 'device_not_found' });
      }
      const protectsLast = await this.deps.licences.protectsLastDevice(tx, companyId);
      if (protectsLast && (await repo.countDevices(tx, companyId)) === 1) {
        throw conflict(
          'The last device cannot be deleted while the subscription is active. Cancel the subscription first.',
          { code: 'last_device' },
        );
      }
      await repo.deleteDevice(tx, companyId, id);
    });
  }

  /** Responses for `rows` with each device's latest downlink, in one query. */
  private async responses(companyId: string, rows: repo.DeviceRecord[]): Promise<Device[]> {
    const latest = await latestDownlinks(
      this.deps.db,
      companyId,
      rows.map((r) => r.device.id),
    );
    const ids = rows.map((r) => r.device.id);
    const configs = await deviceConfigStates(this.deps.db, companyId, { ids });
    const batteries = await repo.batteryHistory(this.deps.db, companyId, ids);
    const now = (this.deps.now ?? systemClock)();
    return rows.map((r) => {
      const state = configs.get(r.device.id);
      const codec = getCodec(r.device.model);
      const history = batteries.get(r.device.id);
      return toDeviceResponse(r, latest.get(r.device.id), {
        ...configSummary(
          codec,
          state ?? { ...NO_CONFIG_STATE, firmware: r.device.firmware },
          this.deps.airtimeBudgetMs,
        ),
        batteryTrend: history ? batteryTrend(history, codec.lowBatteryVolts, now) : null,
      });
    });
  }

  private async response(companyId: string, row: repo.DeviceRecord): Promise<Device> {
    const [device] = await this.responses(companyId, [row]);
    return device as Device;
  }

  private async require(companyId: string, id: string) {
    const row = await repo.findDevice(this.deps.db, companyId, id);
    if (!row) throw notFound(DEVICE_NOT_FOUND, { code: 'device_not_found' });
    return row;
  }

  private async requireUnit(companyId: string, unitId: string) {
    if (!(await repo.unitExists(this.deps.db, companyId, unitId)))
      throw notFound(UNKNOWN_UNIT, { code: 'unknown_unit' });
  }
}
