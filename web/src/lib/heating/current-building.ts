/**
 * The building a member works in (decision 0052): chosen in the navigation's building switcher,
 * kept per company in localStorage (client-storage.ts), and the default building filter of the
 * units, devices, alerts, closures and booking calendars lists. A list may narrow to another
 * building or a floor for itself (or open at a link's building); choosing a building in the
 * switcher again sets every list back to it.
 */
import { useState, useSyncExternalStore } from 'react';
import { getCurrentBuildingId, setCurrentBuildingId, subscribeCurrentBuilding } from '../client-storage.ts';
import { useCurrentCompanyId } from '../use-can.ts';
import { useAllBuildings } from './list-buildings.ts';

/**
 * The current building of the current company (null: all buildings), the company's buildings,
 * and the setter. A stored building the company no longer has counts as none once the
 * buildings are loaded.
 */
export function useCurrentBuilding() {
  const companyId = useCurrentCompanyId();
  const stored = useSyncExternalStore(subscribeCurrentBuilding, () =>
    companyId ? getCurrentBuildingId(companyId) : null,
  );
  const { buildings, isPending } = useAllBuildings();
  const buildingId = stored && (isPending || buildings.some((b) => b.id === stored)) ? stored : null;
  const setBuildingId = (id: string | null) => {
    if (companyId) setCurrentBuildingId(companyId, id);
  };
  return { buildingId, buildings, isPending, setBuildingId };
}

/** What a list sends: `buildingId` and, with `floors`, `floor` — only those chosen. */
export interface BuildingFilterParams {
  buildingId?: string;
  floor?: string;
}

interface Choice {
  /** The current building when the list made its own choice; the choice lapses when that changes. */
  base: string | null;
  buildingId: string;
  floor: string;
}

/** The current building and whether the buildings were still loading, as a render last saw them. */
interface Seen {
  buildingId: string | null;
  isPending: boolean;
}

/**
 * A list's building (and floor) filter: the current building unless the list chose otherwise —
 * `initialBuildingId` (a link's `?building=`) is such a choice from the start; `onChange` runs
 * whenever the filter changes (to go back to page 1), also when the switcher chooses another
 * building. A building that is not the company's filters nothing once the buildings are known;
 * until then `resolving` says the filter may still change.
 */
export function useBuildingFilter(onChange: () => void, initialBuildingId?: string | null) {
  const current = useCurrentBuilding();
  const [choice, setChoice] = useState<Choice | null>(() =>
    initialBuildingId ? { base: current.buildingId, buildingId: initialBuildingId, floor: '' } : null,
  );
  const [seen, setSeen] = useState<Seen>({ buildingId: current.buildingId, isPending: current.isPending });
  let own = choice && choice.base === current.buildingId ? choice : null;
  if (seen.buildingId !== current.buildingId || seen.isPending !== current.isPending) {
    setSeen({ buildingId: current.buildingId, isPending: current.isPending });
    if (seen.buildingId !== current.buildingId) {
      if (seen.isPending && choice && choice.base === seen.buildingId) {
        // The buildings arrived without the stored current building: nobody switched, so the
        // list's own choice (a link's building) stays.
        own = { ...choice, base: current.buildingId };
        setChoice(own);
      } else {
        // The switcher chose another building: the list follows it from its first page.
        onChange();
      }
    }
  }
  const wanted = own ? own.buildingId : (current.buildingId ?? '');
  const building = current.buildings.find((b) => b.id === wanted);
  // A building deleted meanwhile filters no more, a floor removed from it neither.
  const buildingId = building || current.isPending ? wanted : '';
  const floor = own && building?.floors.includes(own.floor) ? own.floor : '';
  const choose = (next: Omit<Choice, 'base'>) => {
    setChoice({ ...next, base: current.buildingId });
    onChange();
  };
  const params: BuildingFilterParams = {
    ...(buildingId ? { buildingId } : {}),
    ...(floor ? { floor } : {}),
  };
  return {
    buildings: current.buildings,
    buildingId,
    floor,
    /** The chosen building's floors, for the floor select. */
    floors: building?.floors ?? [],
    setBuilding: (id: string) => choose({ buildingId: id, floor: '' }),
    setFloor: (name: string) => choose({ buildingId, floor: name }),
    params,
    filtered: Boolean(buildingId),
    /** A building is wanted while the buildings are still loading: it may turn out not to be the company's. */
    resolving: current.isPending && Boolean(buildingId),
  };
}

export type BuildingFilter = ReturnType<typeof useBuildingFilter>;
