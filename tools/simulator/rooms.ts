/**
 * Seeded populations of school and office rooms for the benches: the two-node (2R2C) envelope of
 * `thermal.ts`, per m² floor area (A_f), drawn from the ranges of ISO 13790 and of grey-box fits
 * of real buildings (the optimum-start bench's header gives the sources):
 * - mass C_m uniform between ISO 13790 Table 12's "light" 110 and "very heavy" 370 kJ/(m² K),
 *   effective mass area A_m = 2.5 A_f up to "medium", rising to 3.5 A_f;
 * - air ↔ mass H_am = h_ms A_m in series with h_is A_t (ISO 13790 §7.2.2, A_t = 4.5 A_f);
 * - losses on the air (ventilation 0.15–0.7 air changes/h × 0.34 Wh/(m³ K) × 3 m, windows of
 *   25 % of the floor at U 0.9–2.8 W/(m² K)) and from the mass (opaque fabric 0.1–1.2 W/(m² K));
 * - air-node time constant log-uniform 0.5–2 h; building time constant 30–150 h (a draw outside
 *   is drawn again).
 * Conductances W/(m² K), capacities Wh/(m² K), time constants h.
 */

/** Deterministic PRNG (mulberry32), so every run draws the same rooms. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One room's envelope, per m² floor. */
export interface Envelope {
  /** Air node's heat capacity C_air, Wh/(m² K). */
  airCapacity: number;
  /** Mass node's heat capacity C_m, Wh/(m² K). */
  massCapacity: number;
  /** Air ↔ mass conductance H_am, W/(m² K). */
  coupling: number;
  /** Air → outside (windows, ventilation) H_ao, W/(m² K). */
  airLoss: number;
  /** Mass → outside (opaque fabric) H_mo, W/(m² K). */
  fabricLoss: number;
  /** Steady-state loss of the room, W/(m² K). */
  totalLoss: number;
  /** C_air / (H_am + H_ao), h. */
  airHours: number;
  /** (C_air + C_m) / H_total, h. */
  buildingHours: number;
  /** Radiator oversizing drawn from the caller's range. */
  sizing: number;
  /** Minute within the reporting interval at which the room's valve reports. */
  phase: number;
}

/** Kelvin-hours of a W/(m² K) conductance → Wh/m², and ISO 13790's kJ → Wh. */
const KJ_TO_WH = 1 / 3.6;
/** ISO 13790 §7.2.2: mass ↔ surface 9.1 W/(m² K) per m² of A_m, surface ↔ air 3.45 per m² of A_t = 4.5 A_f. */
const H_MS = 9.1;
const H_IS = 3.45 * 4.5;

/**
 * `count` envelopes from `seed`; `sizing` is the range of radiator oversizing to draw, `uplinkMinutes`
 * the valves' reporting interval (the phase is drawn within it).
 */
export function makeEnvelopes(
  count: number,
  options: { seed: number; sizing: [number, number]; uplinkMinutes: number },
): Envelope[] {
  const random = seeded(options.seed);
  const between = (low: number, high: number) => low + (high - low) * random();
  const logBetween = (low: number, high: number) => low * (high / low) ** random();
  const rooms: Envelope[] = [];
  while (rooms.length < count) {
    const massKj = between(110, 370);
    const massCapacity = massKj * KJ_TO_WH;
    const massArea = massKj <= 165 ? 2.5 : 2.5 + (massKj - 165) / 205;
    const coupling = 1 / (1 / (H_MS * massArea) + 1 / H_IS);
    const airLoss = between(0.15, 0.7) * 0.34 * 3 + 0.25 * between(0.9, 2.8);
    const fabricLoss = between(0.1, 1.2);
    const totalLoss = airLoss + (coupling * fabricLoss) / (coupling + fabricLoss);
    const airHours = logBetween(0.5, 2);
    const airCapacity = airHours * (coupling + airLoss);
    const buildingHours = (airCapacity + massCapacity) / totalLoss;
    const sizing = between(options.sizing[0], options.sizing[1]);
    const phase = Math.floor(random() * options.uplinkMinutes);
    if (buildingHours < 30 || buildingHours > 150) continue;
    rooms.push({
      airCapacity,
      massCapacity,
      coupling,
      airLoss,
      fabricLoss,
      totalLoss,
      airHours,
      buildingHours,
      sizing,
      phase,
    });
  }
  return rooms;
}
