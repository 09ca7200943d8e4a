import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MODEL,
  detectComfortHolds,
  detectCoolDowns,
  detectWarmUpSessions,
  type ExcludedPeriod,
  earlyStopMinutes,
  fitWarmUpModel,
  type HistoryInput,
  leadTime,
  MIN_SESSIONS,
  type OutdoorSample,
  type RoomSample,
  type SetpointStep,
  type WarmUpModel,
  type WarmUpSession,
} from './warm-up.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Monday 1 Dec 2025 00:00 UTC. */
const T0 = Date.UTC(2025, 11, 1);
const DEADTIME_MIN = 30;
const COOL_RATE = 0.8;
/** The room's true warm-up rate: faster when it is milder outside. */
const trueRate = (outdoor: number) => 2 + 0.1 * outdoor;

/** One morning: setback 16 °C from 17:00 the day before, comfort 21 °C at 06:00. */
interface Day {
  /** Room temperature the setback settles at, °C. */
  from: number;
  outdoor: number;
  /** K/h; defaults to the true rate at `outdoor`. */
  rate?: number;
  /** Source of the 06:00 step and of the 17:00 step before it. */
  source?: string;
  previousSource?: string;
  previousSetpoint?: number;
}

/**
 * Readings every 10 min: at 17:00 the room falls linearly at COOL_RATE until it settles at `from`,
 * stays flat through the dead time after 06:00, then rises linearly at the rate until 21 °C.
 * A tiny deterministic wobble (±0.03 K) keeps the crossings off exact sample values.
 */
function history(days: Day[]): HistoryInput {
  const samples: RoomSample[] = [];
  const setpoints: SetpointStep[] = [{ at: T0 - DAY, setpoint: 21, source: 'regular_plan' }];
  const outdoor: OutdoorSample[] = [];
  days.forEach((day, d) => {
    const evening = T0 + d * DAY - 7 * HOUR;
    const step = T0 + d * DAY + 6 * HOUR;
    const rate = day.rate ?? trueRate(day.outdoor);
    setpoints.push(
      { at: evening, setpoint: day.previousSetpoint ?? 16, source: day.previousSource ?? 'regular_plan' },
      { at: step, setpoint: 21, source: day.source ?? 'regular_plan' },
    );
    for (let t = evening; t < evening + DAY; t += 10 * MINUTE) {
      const cooled = Math.max(day.from, 21 - COOL_RATE * ((t - evening) / HOUR));
      const warmed = Math.min(21, day.from + rate * Math.max(0, (t - step) / HOUR - DEADTIME_MIN / 60));
      const wobble = 0.03 * Math.sin(t / 7_777_777);
      samples.push({ at: t, temperature: (t < step ? cooled : warmed) + wobble });
    }
    for (let t = evening; t < evening + DAY; t += HOUR) outdoor.push({ at: t, temperature: day.outdoor });
  });
  return { samples, setpoints, outdoor, excluded: [] };
}

const GOOD_DAYS: Day[] = [
  { from: 16, outdoor: -8 },
  { from: 15, outdoor: -3 },
  { from: 17, outdoor: 0 },
  { from: 16.5, outdoor: 4 },
  { from: 14.5, outdoor: 7 },
  { from: 16, outdoor: 10 },
];

const within = (actual: number, expected: number, share: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.abs(expected) * share);

describe('warm-up sessions and fit', () => {
  it('recovers dead time and the outdoor-dependent rate of synthetic sessions within 10 %', () => {
    const sessions = detectWarmUpSessions(history(GOOD_DAYS));
    expect(sessions).toHaveLength(GOOD_DAYS.length);
    sessions.forEach((s, i) => {
      const day = GOOD_DAYS[i] as Day;
      within(s.rate, trueRate(day.outdoor), 0.1);
      expect(s.outdoor).toBeCloseTo(day.outdoor, 6);
      within(s.lift, 21 - day.from, 0.05);
    });
    const model = fitWarmUpModel(sessions);
    // By definition the dead time ends at a 0.2 K rise: the flat part plus 0.2 K at the rate.
    const expectedDead = GOOD_DAYS.map((d) => DEADTIME_MIN + (0.2 / trueRate(d.outdoor)) * 60).sort(
      (a, b) => a - b,
    );
    within(model.deadtimeMinutes, ((expectedDead[2] as number) + (expectedDead[3] as number)) / 2, 0.1);
    within(model.rateAt0, 2, 0.1);
    within(model.ratePerOutdoorK, 0.1, 0.1);
    expect(model.learned).toBe(true);
    expect(model.sessions).toBe(GOOD_DAYS.length);
    expect(model.confidence).toBeGreaterThan(0.5);
    expect(model.confidence).toBeLessThanOrEqual(GOOD_DAYS.length / 10);
  });

  it('excludes window, setpoint change, data gap, excluded period and frost sessions; the fit ignores their wrong rate', () => {
    const wrong = 8;
    const bad: Day[] = [
      { from: 15, outdoor: 2, rate: wrong }, // window open
      { from: 15, outdoor: 2, rate: wrong }, // setpoint change midway
      { from: 15, outdoor: 2, rate: wrong }, // data gap
      { from: 15, outdoor: 2, rate: wrong }, // inside an excluded period
      { from: 12, outdoor: 2, rate: wrong, previousSource: 'paused', previousSetpoint: 8 },
      { from: 12, outdoor: 2, rate: wrong, previousSource: 'no_plan', previousSetpoint: 8 },
      { from: 12, outdoor: 2, rate: wrong, source: 'closure' },
      { from: 15, outdoor: 2, rate: 0.7 }, // reaches the target after 8.6 h, not within 6 h
      { from: 15, outdoor: 2, rate: wrong }, // setpoint change between two readings, just before the target
    ];
    const input = history([...GOOD_DAYS, ...bad]);
    const stepOf = (i: number) => T0 + (GOOD_DAYS.length + i) * DAY + 6 * HOUR;
    const window = input.samples.find((s) => s.at === stepOf(0) + 40 * MINUTE) as RoomSample;
    window.windowOpen = true;
    input.setpoints.push({ at: stepOf(1) + 40 * MINUTE, setpoint: 22, source: 'web_change' });
    // Readings at +70 and +80 min; 20.7 °C is crossed at about +75 min, after this change.
    input.setpoints.push({ at: stepOf(8) + 72 * MINUTE, setpoint: 19, source: 'web_change' });
    input.setpoints.sort((a, b) => a.at - b.at);
    const gapFrom = stepOf(2) + 30 * MINUTE;
    input.samples = input.samples.filter((s) => s.at <= gapFrom || s.at >= gapFrom + 100 * MINUTE);
    const excluded: ExcludedPeriod[] = [{ start: stepOf(3) - HOUR, end: stepOf(3) + 5 * HOUR }];

    const sessions = detectWarmUpSessions({ ...input, excluded });
    expect(sessions.map((s) => s.start)).toEqual(GOOD_DAYS.map((_, d) => T0 + d * DAY + 6 * HOUR));
    const clean = fitWarmUpModel(detectWarmUpSessions(history(GOOD_DAYS)));
    const model = fitWarmUpModel(sessions);
    expect(model.rateAt0).toBeCloseTo(clean.rateAt0, 6);
    expect(model.ratePerOutdoorK).toBeCloseTo(clean.ratePerOutdoorK, 6);
    // Each of them, alone, would be a session at the wrong rate.
    const alone = detectWarmUpSessions(history(bad.slice(0, 4)));
    expect(alone).toHaveLength(4);
    expect(alone.every((s) => s.rate > 5)).toBe(true);
  });

  it('drops a valid session with a wild rate (> 3 MAD) before the regression', () => {
    const days = [...GOOD_DAYS, { from: 15, outdoor: 1, rate: 9 }];
    const model = fitWarmUpModel(detectWarmUpSessions(history(days)));
    within(model.rateAt0, 2, 0.1);
    within(model.ratePerOutdoorK, 0.1, 0.1);
  });

  it('falls back to the median rate without outdoor temperatures', () => {
    const input = history(GOOD_DAYS);
    const sessions = detectWarmUpSessions({ ...input, outdoor: [] });
    expect(sessions.every((s) => s.outdoor === null)).toBe(true);
    const model = fitWarmUpModel(sessions);
    expect(model.ratePerOutdoorK).toBe(0);
    within(model.rateAt0, (trueRate(0) + trueRate(4)) / 2, 0.1);
  });

  it('keeps the default model (30 min/K) before MIN_SESSIONS sessions', () => {
    const sessions = detectWarmUpSessions(history(GOOD_DAYS.slice(0, MIN_SESSIONS - 1)));
    expect(sessions).toHaveLength(MIN_SESSIONS - 1);
    const model = fitWarmUpModel(sessions, [0.5, 0.5]);
    expect(model).toEqual(DEFAULT_MODEL);
    const lead = leadTime(model, { lift: 4, outdoor: -5, maxMinutes: 180, uplinkIntervalMinutes: 0 });
    expect(lead.heatUpMinutes).toBe(120);
    expect(lead.minutes).toBe(120);
  });

  it('uses only the last 10 sessions', () => {
    const old: WarmUpSession = {
      start: 0,
      lift: 5,
      outdoor: null,
      deadtimeMinutes: 500,
      rate: 50,
      durationMinutes: 1,
    };
    const recent = Array.from({ length: 10 }, (_, i) => ({
      ...old,
      start: i + 1,
      deadtimeMinutes: 10,
      rate: 2,
    }));
    const model = fitWarmUpModel([...recent, old]);
    expect(model.sessions).toBe(10);
    expect(model.deadtimeMinutes).toBe(10);
    expect(model.rateAt0).toBe(2);
    expect(model.confidence).toBe(1);
  });
});

describe('cool-downs', () => {
  it('measures the fall over the first hour after a step down', () => {
    const rates = detectCoolDowns(history(GOOD_DAYS));
    expect(rates).toHaveLength(GOOD_DAYS.length);
    for (const rate of rates) within(rate, COOL_RATE, 0.1);
  });

  it('skips a step down with the window open or the room already near the new setpoint', () => {
    const input = history(GOOD_DAYS.slice(0, 3));
    expect(detectCoolDowns(input)).toHaveLength(3);
    (input.samples.find((s) => s.at === T0 - 7 * HOUR + 20 * MINUTE) as RoomSample).windowOpen = true;
    // 10 min into the first warm-up the room is still at 16 °C: a step to 15.5 °C cools nothing.
    input.setpoints.push({ at: T0 + 6 * HOUR + 10 * MINUTE, setpoint: 15.5, source: 'web_change' });
    input.setpoints.sort((a, b) => a.at - b.at);
    expect(detectCoolDowns(input)).toHaveLength(1);
  });
});

describe('comfort holds', () => {
  /** One switch-off at `at` from 21 to 16 °C with readings every 10 min from `temperatures`. */
  const switchOff = (temperatures: number[]): HistoryInput => ({
    samples: temperatures.map((temperature, i) => ({ at: T0 + (i - 1) * 10 * MINUTE, temperature })),
    setpoints: [
      { at: T0 - DAY, setpoint: 21, source: 'regular_plan' },
      { at: T0, setpoint: 16, source: 'regular_plan' },
    ],
    outdoor: [],
    excluded: [],
  });

  it('measures the minutes until the room is 0.5 K below where the switch-off found it', () => {
    const holds = detectComfortHolds(history(GOOD_DAYS));
    expect(holds).toHaveLength(GOOD_DAYS.length);
    // 0.5 K at 0.8 K/h: 37.5 min.
    for (const hold of holds) within(hold, 37.5, 0.1);
  });

  it("reads the fast first fall of the air, which the hour's mean rate would hide", () => {
    // 1 K in the hour, as a 1 K/h room, but 0.6 K of it in the first 10 minutes: 0.5 K after 8 min,
    // where the mean rate would promise 30.
    const input = switchOff([21, 21, 20.4, 20.3, 20.2, 20.1, 20.05, 20, 20]);
    expect(detectCoolDowns(input)).toEqual([1]);
    expect(detectComfortHolds(input)).toEqual([8]);
  });

  it('counts a room that held all hour as 60 minutes', () => {
    expect(detectComfortHolds(switchOff([21, 21, 20.9, 20.8, 20.8, 20.7, 20.7, 20.6, 20.6]))).toEqual([60]);
  });

  it('is learned as the median of the recent holds', () => {
    const sessions = detectWarmUpSessions(history(GOOD_DAYS));
    expect(fitWarmUpModel(sessions, [1, 1, 1], [8, 30, 12]).comfortHoldMinutes).toBe(12);
    expect(fitWarmUpModel(sessions, [1]).comfortHoldMinutes).toBeUndefined();
  });
});

const learned: WarmUpModel = {
  sessions: 8,
  deadtimeMinutes: 20,
  rateAt0: 2,
  ratePerOutdoorK: 0.1,
  confidence: 0.8,
  learned: true,
  coolRate: 0.5,
  comfortHoldMinutes: 30,
};

describe('lead time', () => {
  const base = { outdoor: 0, maxMinutes: 180, uplinkIntervalMinutes: 10 };

  it('adds the Class A delay exactly to dead time + lift / rate', () => {
    const lead = leadTime(learned, { ...base, lift: 3 });
    expect(lead.rate).toBe(2);
    expect(lead.heatUpMinutes).toBe(20 + 90);
    expect(lead.classADelayMinutes).toBe(10);
    expect(lead.minutes).toBe(120);
    expect(leadTime(learned, { ...base, lift: 3, outdoor: 10 }).heatUpMinutes).toBe(20 + 60);
  });

  it('clamps a tiny lift to 15 min and a huge one to maxMinutes, Class A on top', () => {
    const fast = { ...learned, deadtimeMinutes: 0 };
    expect(leadTime(fast, { ...base, lift: 0.1 })).toMatchObject({ heatUpMinutes: 15, minutes: 25 });
    expect(leadTime(learned, { ...base, lift: 30 })).toMatchObject({ heatUpMinutes: 180, minutes: 190 });
    expect(leadTime(learned, { ...base, lift: 30, maxMinutes: 120 }).minutes).toBe(130);
    expect(leadTime(learned, { ...base, lift: -1 })).toMatchObject({ heatUpMinutes: 0, minutes: 10 });
  });

  it('never assumes a rate below 0.2 K/h, even where the fitted line goes negative', () => {
    const lead = leadTime(learned, { ...base, lift: 0.5, outdoor: -40, maxMinutes: 10_000 });
    expect(lead.rate).toBe(0.2);
    expect(lead.heatUpMinutes).toBe(20 + 150);
  });
});

describe('early stop', () => {
  const stop = { comfort: 21, next: 16, outdoor: 0, uplinkIntervalMinutes: 10 };

  it('ends comfort by the learned hold minus the Class A interval, at most 60 min', () => {
    expect(earlyStopMinutes(learned, stop)).toBe(20);
    expect(earlyStopMinutes({ ...learned, comfortHoldMinutes: 90 }, stop)).toBe(60);
  });

  it('is 0 under 10 min, when next ≥ comfort, not learned or before a hold was seen', () => {
    expect(earlyStopMinutes({ ...learned, comfortHoldMinutes: 19 }, stop)).toBe(0);
    expect(earlyStopMinutes({ ...learned, comfortHoldMinutes: 20 }, stop)).toBe(10);
    expect(earlyStopMinutes(learned, { ...stop, next: 21 })).toBe(0);
    expect(earlyStopMinutes({ ...learned, learned: false }, stop)).toBe(0);
    expect(earlyStopMinutes({ ...learned, comfortHoldMinutes: undefined }, stop)).toBe(0);
  });
});
