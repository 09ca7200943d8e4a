/**
 * `npm run school-holidays [-- --from YYYY-MM-DD --to YYYY-MM-DD]`: fetches the school holidays of
 * all 16 federal states from the OpenHolidays API (open data, ODbL 1.0) and rewrites
 * server/src/heating/school-holidays.de.json. Defaults: from 1 July of this year to
 * 30 September three years later (the current and the next two school years). Needs the
 * internet; the server itself never fetches them.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { FEDERAL_STATES, type FederalState } from '@heizplan/contracts/buildings';
import { SCHOOL_HOLIDAYS_FILE } from '../../server/src/heating/school-holidays.ts';
import { type ApiSchoolHoliday, toSchoolHolidayData } from './transform.ts';

const API = 'https://openholidaysapi.org/SchoolHolidays';
const year = new Date().getUTCFullYear();
const { values } = parseArgs({
  options: {
    from: { type: 'string', default: `${year}-07-01` },
    to: { type: 'string', default: `${year + 3}-09-30` },
  },
});
const from = values.from as string;
const to = values.to as string;

/** The API answers at most three years per request, so longer ranges are asked for in pieces. */
async function fetchState(state: FederalState): Promise<ApiSchoolHoliday[]> {
  const entries: ApiSchoolHoliday[] = [];
  for (let start = from; start <= to; ) {
    const next = `${Number(start.slice(0, 4)) + 2}${start.slice(4)}`;
    const end = next < to ? next : to;
    const url = new URL(API);
    url.search = new URLSearchParams({
      countryIsoCode: 'DE',
      subdivisionCode: `DE-${state}`,
      validFrom: start,
      validTo: end,
    }).toString();
    const response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(30_000),
    });
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    entries.push(...((await response.json()) as ApiSchoolHoliday[]));
    if (end === to) break;
    start = end;
  }
  return entries;
}

const answers: Partial<Record<FederalState, ApiSchoolHoliday[]>> = {};
for (const state of FEDERAL_STATES) answers[state] = await fetchState(state);
const data = toSchoolHolidayData(answers, from, to, new Date().toISOString().slice(0, 10));
const file = fileURLToPath(SCHOOL_HOLIDAYS_FILE);
writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
execFileSync('npx', ['biome', 'format', '--write', file], { stdio: 'inherit' });
const count = Object.values(data.states).reduce((n, periods) => n + periods.length, 0);
console.log(`${count} school holiday periods from ${from} to ${to} written to ${file}`);
