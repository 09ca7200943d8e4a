/**
 * Lists grouped by place (decision 0052): by building, then by floor in the order the company
 * lists the building's floors (cellar to roof as entered, not alphabetically).
 */
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { naturalOrder } from './natural-sort.ts';
import { buildings } from './schema.ts';

/**
 * 1-based place of `floor` in the jsonb array `floors`; null for no floor or one not listed.
 * `buildings.floors` is jsonb, not text[], so `array_position` does not apply.
 */
export function floorPosition(floors: AnyColumn | SQL, floor: AnyColumn | SQL): SQL {
  return sql`(select f.ord from jsonb_array_elements_text(${floors}) with ordinality as f(name, ord)
    where f.name = ${floor} limit 1)`;
}

/**
 * Order keys for a query left-joined to `buildings`: the building's name naturally, its id (two
 * buildings of one name stay apart), then the place of the unit's `floor` in the building's
 * floors. `desc` reverses buildings and floors; rows without building or floor come last either way.
 */
export function buildingAndFloorOrder(order: 'asc' | 'desc', floor: AnyColumn): SQL[] {
  const position = floorPosition(buildings.floors, floor);
  return [
    naturalOrder(buildings.name, order),
    sql`${buildings.id} asc nulls last`,
    order === 'asc' ? sql`${position} asc nulls last` : sql`${position} desc nulls last`,
  ];
}
