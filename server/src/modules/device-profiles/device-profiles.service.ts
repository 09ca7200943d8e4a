/**
 * Device profiles (decision 0062): `operate` members create, change and delete them and say where
 * they apply; everyone who reads the company sees them with how many devices follow each and how
 * many report its configuration. A change is handed to the downlink queue for the devices of the
 * profile's model at once (`assigned`), so they need not wait for the next full reconcile.
 */
import type {
  DeviceConfig,
  DeviceProfile,
  DeviceProfileInputSchema,
  DeviceProfileList,
  DeviceProfilePatchSchema,
  DeviceProfilePlaces,
} from '@heizplan/contracts/device-profiles';
import type { z } from 'zod';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { CodecError, type ConfigField } from '../../lorawan/codecs/codec.ts';
import { getCodec, isModelId, listCodecs } from '../../lorawan/codecs/registry.ts';
import { deviceConfigStates } from '../../lorawan/device-config.repository.ts';
import { configStatus, SETPOINT_BYTES } from '../../lorawan/device-config.ts';
import * as repo from './device-profiles.repository.ts';

const NO_PLACES: DeviceProfilePlaces = { company: false, buildingIds: [], groupIds: [], unitIds: [] };

export interface DeviceProfilesDeps {
  db: Db;
  /** Each device's daily airtime budget, ms. */
  airtimeBudgetMs: number;
  /** Told of devices whose desired configuration may have changed. */
  changed?: (deviceIds: string[]) => void;
}

export class DeviceProfilesService {
  constructor(private readonly deps: DeviceProfilesDeps) {}

  /** The company's profiles with their places and sync counts, and the models that take configuration. */
  async list(userId: string, companyId: string): Promise<DeviceProfileList> {
    const { db, airtimeBudgetMs } = this.deps;
    await requireMember(db, userId, companyId, 'read');
    const profiles = await repo.listProfiles(db, companyId);
    return {
      results: await this.present(companyId, profiles),
      models: listCodecs().flatMap((codec) =>
        codec.config
          ? [
              {
                model: codec.model,
                name: `${codec.vendor} ${codec.name}`,
                defaults: codec.config.factory,
                fields: Object.keys(codec.config.fields) as ConfigField[],
              },
            ]
          : [],
      ),
      airtimeBudgetS: airtimeBudgetMs / 1000,
    };
  }

  /**
   * Creates a profile. @throws 400 `device_profile_model` for a model without configuration
   * commands or a value it cannot take, 409 `device_profile_name_taken`, 404 for a place not the company's.
   */
  async create(
    userId: string,
    companyId: string,
    input: z.output<typeof DeviceProfileInputSchema>,
  ): Promise<DeviceProfile> {
    const { db } = this.deps;
    await requireMember(db, userId, companyId, 'operate');
    requireConfigurable(input.model, input.config);
    const id = await db.transaction(async (tx) => {
      if (await repo.nameTaken(tx, companyId, input.name)) throw nameTaken(input.name);
      const created = await repo.insertProfile(tx, {
        companyId,
        name: input.name,
        model: input.model,
        config: input.config,
      });
      await placesOrThrow(tx, companyId, { id: created, model: input.model }, input.places);
      return created;
    });
    await this.announce(companyId, input.model);
    return this.one(companyId, id);
  }

  /** Changes only the fields given. @throws 404 unknown profile; as `create`. */
  async update(
    userId: string,
    companyId: string,
    id: string,
    patch: z.output<typeof DeviceProfilePatchSchema>,
  ): Promise<DeviceProfile> {
    const { db } = this.deps;
    await requireMember(db, userId, companyId, 'operate');
    const profile = await this.require(companyId, id);
    if (patch.config) requireConfigurable(profile.model, patch.config);
    await db.transaction(async (tx) => {
      if (patch.name !== undefined && (await repo.nameTaken(tx, companyId, patch.name, id)))
        throw nameTaken(patch.name);
      const fields = {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.config ? { config: patch.config } : {}),
      };
      if (Object.keys(fields).length > 0) await repo.updateProfile(tx, companyId, id, fields);
      if (patch.places) await placesOrThrow(tx, companyId, profile, patch.places);
    });
    await this.announce(companyId, profile.model);
    return this.one(companyId, id);
  }

  /** Deletes the profile; its devices fall back to the next less specific one. @throws 404 unknown profile. */
  async remove(userId: string, companyId: string, id: string): Promise<void> {
    const { db } = this.deps;
    await requireMember(db, userId, companyId, 'operate');
    const profile = await this.require(companyId, id);
    await db.transaction((tx) => repo.deleteProfile(tx, companyId, id));
    await this.announce(companyId, profile.model);
  }

  /** One profile as `list` shows it. @throws 404 unknown profile. */
  async get(userId: string, companyId: string, id: string): Promise<DeviceProfile> {
    await requireMember(this.deps.db, userId, companyId, 'read');
    return this.one(companyId, id);
  }

  private async one(companyId: string, id: string): Promise<DeviceProfile> {
    const profile = await this.require(companyId, id);
    const [presented] = await this.present(companyId, [profile]);
    return presented as DeviceProfile;
  }

  /**
   * `profiles` with their places and how many of their devices report them: the devices of the
   * profiles' models are read with their configuration state (device-config.repository.ts).
   */
  private async present(companyId: string, profiles: repo.ProfileRow[]): Promise<DeviceProfile[]> {
    const { db, airtimeBudgetMs } = this.deps;
    const places = await repo.placesByProfile(db, companyId);
    const sync = new Map<string, DeviceProfile['sync']>();
    for (const model of new Set(profiles.map((p) => p.model))) {
      const codec = getCodec(model);
      for (const state of (await deviceConfigStates(db, companyId, { model })).values()) {
        if (!state.profileId) continue;
        const counts = sync.get(state.profileId) ?? { devices: 0, inSync: 0, pending: 0, differs: 0 };
        const { status } = configStatus(codec, state, airtimeBudgetMs, SETPOINT_BYTES);
        counts.devices++;
        if (status === 'in_sync') counts.inSync++;
        else if (status === 'pending') counts.pending++;
        else if (status === 'differs') counts.differs++;
        sync.set(state.profileId, counts);
      }
    }
    return profiles.map((p) => ({
      id: p.id,
      name: p.name,
      model: p.model,
      config: p.config,
      places: places.get(p.id)?.places ?? NO_PLACES,
      units: places.get(p.id)?.units ?? [],
      sync: sync.get(p.id) ?? { devices: 0, inSync: 0, pending: 0, differs: 0 },
      updatedAt: p.updatedAt.toISOString(),
    }));
  }

  private async require(companyId: string, id: string) {
    const profile = await repo.findProfile(this.deps.db, companyId, id);
    if (!profile) throw notFound('Unknown device profile', { code: 'unknown_device_profile' });
    return profile;
  }

  private async announce(companyId: string, model: string) {
    if (!this.deps.changed) return;
    this.deps.changed(await repo.deviceIdsOfModel(this.deps.db, companyId, model));
  }
}

const nameTaken = (name: string) =>
  conflict(`A device profile named "${name}" already exists.`, {
    code: 'device_profile_name_taken',
    params: { name },
  });

/** @throws 400 when the model takes no configuration commands or a value does not encode. */
function requireConfigurable(model: string, config: DeviceConfig) {
  const codec = isModelId(model) ? getCodec(model) : undefined;
  if (!codec?.config) {
    throw badRequest(
      `The model ${model} takes no configuration commands.`,
      [{ field: 'model', message: 'no configuration commands' }],
      {
        code: 'device_profile_model',
        params: { model },
      },
    );
  }
  for (const field of Object.keys(codec.config.fields) as ConfigField[]) {
    try {
      codec.config.encode(field, config[field]);
    } catch (err) {
      if (!(err instanceof CodecError)) throw err;
      throw badRequest(err.message, [{ field: `config.${field}`, message: err.message }]);
    }
  }
}

async function placesOrThrow(
  tx: Db,
  companyId: string,
  profile: { id: string; model: string },
  places: DeviceProfilePlaces,
) {
  const unknown = await repo.replacePlaces(tx, companyId, profile, places);
  if (unknown) throw notFound(`Unknown ${unknown}`, { code: `unknown_${unknown}` });
}
