/**
 * What the reports screen shows, as kept in its address so a link reproduces the view: the
 * period (`?month=2026-11`, or `?season=2026` for 1 October 2026 to 30 April 2027) and the scope
 * (`buildingId`, `groupId`, `unitId`; a room reached from its building keeps the building for the
 * breadcrumb, while the request asks for the room alone). Pure functions, no clock: callers pass
 * today.
 */

export type PeriodKind = 'month' | 'season';

export interface ReportView {
  period: { kind: 'month'; month: string } | { kind: 'season'; season: number };
  buildingId?: string;
  groupId?: string;
  unitId?: string;
}

/** The query of `GET …/reports`: the period and at most one scope id, the deepest. */
export interface ReportRequest {
  month?: string;
  season?: number;
  buildingId?: string;
  groupId?: string;
  unitId?: string;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** Days of a month during which the previous, now complete, month is the one worth reading. */
const FIRST_DAYS = 5;

const pad = (month: number) => String(month).padStart(2, '0');
const monthOf = (year: number, month: number) => `${year}-${pad(month)}`;

/** `YYYY-MM` of `date` (local calendar). */
export const monthOfDate = (date: Date) => monthOf(date.getFullYear(), date.getMonth() + 1);

/** The month to open with: the previous one during the first five days of a month, else this one. */
export function defaultMonth(today: Date): string {
  if (today.getDate() > FIRST_DAYS) return monthOfDate(today);
  return shiftMonth(monthOfDate(today), -1);
}

/** `month` moved by `by` months: `shiftMonth('2026-01', -1)` is `'2025-12'`. */
export function shiftMonth(month: string, by: number): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (number - 1) + by;
  return monthOf(Math.floor(index / 12), (index % 12) + 1);
}

/** The heating season (its first year) a month belongs to; May to September count to the one before. */
export function seasonOfMonth(month: string): number {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return number >= 10 ? year : year - 1;
}

/** The first and last month of a season: `2026` → `2026-10` and `2027-04`. */
export const seasonMonths = (season: number) => ({ first: `${season}-10`, last: `${season + 1}-04` });

/** The month to show when leaving a season for the month view: `today`'s if within it, else its nearest edge. */
export function monthInSeason(season: number, today: Date): string {
  const { first, last } = seasonMonths(season);
  const current = defaultMonth(today);
  if (current < first) return first;
  if (current > last) return last;
  return current;
}

/** True when a period after `view`'s would begin after today (no arrow into the future). */
export function isLatest(view: ReportView, today: Date): boolean {
  const now = monthOfDate(today);
  if (view.period.kind === 'month') return view.period.month >= now;
  return view.period.season >= seasonOfMonth(now);
}

const uuidLike = (value: string | null) => (value && /^[\w-]{1,64}$/.test(value) ? value : undefined);

/** The view of an address's search; a missing or malformed period opens the default month. */
export function viewOfSearch(params: URLSearchParams, today: Date): ReportView {
  const month = params.get('month');
  const season = Number(params.get('season'));
  const period: ReportView['period'] =
    month && MONTH.test(month)
      ? { kind: 'month', month }
      : Number.isInteger(season) && season >= 2000 && season <= 2100
        ? { kind: 'season', season }
        : { kind: 'month', month: defaultMonth(today) };
  const view: ReportView = { period };
  const buildingId = uuidLike(params.get('buildingId'));
  const groupId = uuidLike(params.get('groupId'));
  const unitId = uuidLike(params.get('unitId'));
  if (buildingId) view.buildingId = buildingId;
  if (groupId) view.groupId = groupId;
  if (unitId) view.unitId = unitId;
  return view;
}

/** The address search of `view`, period first. */
export function searchOfView(view: ReportView): string {
  const params = new URLSearchParams();
  if (view.period.kind === 'month') params.set('month', view.period.month);
  else params.set('season', String(view.period.season));
  if (view.buildingId) params.set('buildingId', view.buildingId);
  if (view.groupId) params.set('groupId', view.groupId);
  if (view.unitId) params.set('unitId', view.unitId);
  return `?${params}`;
}

/** The scope id the API is asked for: the room, else the group, else the building; none for the company. */
export function scopeOfView(view: ReportView): Pick<ReportRequest, 'buildingId' | 'groupId' | 'unitId'> {
  if (view.unitId) return { unitId: view.unitId };
  if (view.groupId) return { groupId: view.groupId };
  if (view.buildingId) return { buildingId: view.buildingId };
  return {};
}

export function requestOfView(view: ReportView): ReportRequest {
  const period = view.period.kind === 'month' ? { month: view.period.month } : { season: view.period.season };
  return { ...period, ...scopeOfView(view) };
}

/** `view` moved one period back (-1) or on (+1). */
export function shiftView(view: ReportView, by: -1 | 1): ReportView {
  const period: ReportView['period'] =
    view.period.kind === 'month'
      ? { kind: 'month', month: shiftMonth(view.period.month, by) }
      : { kind: 'season', season: view.period.season + by };
  return { ...view, period };
}

/** `view` as a month or as the season that holds its month. */
export function withPeriodKind(view: ReportView, kind: PeriodKind, today: Date): ReportView {
  if (view.period.kind === kind) return view;
  const period: ReportView['period'] =
    view.period.kind === 'month'
      ? { kind: 'season', season: seasonOfMonth(view.period.month) }
      : { kind: 'month', month: monthInSeason(view.period.season, today) };
  return { ...view, period };
}

/** A row's or a room's view: a building replaces the scope; a room keeps the building it was reached from. */
export function drillDown(view: ReportView, target: { kind: 'building' | 'unit'; id: string }): ReportView {
  const { period, buildingId } = view;
  if (target.kind === 'building') return { period, buildingId: target.id };
  return buildingId ? { period, buildingId, unitId: target.id } : { period, unitId: target.id };
}

/** The view one level up the breadcrumb: the company (`level` 'company') or the building. */
export function upTo(view: ReportView, level: 'company' | 'building'): ReportView {
  if (level === 'company' || !view.buildingId) return { period: view.period };
  return { period: view.period, buildingId: view.buildingId };
}

/** True when the view is one building's report (where meters and targets are kept). */
export const isBuildingScope = (view: ReportView) =>
  Boolean(view.buildingId) && !view.unitId && !view.groupId;
