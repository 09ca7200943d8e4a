import { describe, expect, it } from 'vitest';
import { batteryTrend } from './battery-trend.ts';

const now = new Date('2026-11-27T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);

describe('battery trend', () => {
  it('gives the fall per week and the days left until the model’s low voltage', () => {
    const trend = batteryTrend(
      { battery: 3.0, unit: 'V', earlier: { battery: 3.2, at: daysAgo(14) }, lowPercent: null },
      2.7,
      now,
    );
    // 0.2 V in 14 days: 0.1 V a week, 0.3 V above 2.7 V → 21 days.
    expect(trend).toEqual({ perWeek: -0.1, daysLeft: 21 });
  });

  it("uses the company's percentage for devices reporting %, else the default 20 %", () => {
    const history = { battery: 40, unit: '%' as const, earlier: { battery: 54, at: daysAgo(14) } };
    expect(batteryTrend({ ...history, lowPercent: 30 }, undefined, now)).toEqual({
      perWeek: -7,
      daysLeft: 10,
    });
    expect(batteryTrend({ ...history, lowPercent: null }, undefined, now)).toEqual({
      perWeek: -7,
      daysLeft: 20,
    });
  });

  it('says nothing with under 3 days of readings, and no days left while it does not fall', () => {
    expect(
      batteryTrend(
        { battery: 3.0, unit: 'V', earlier: { battery: 3.1, at: daysAgo(2) }, lowPercent: null },
        2.7,
        now,
      ),
    ).toBeNull();
    expect(
      batteryTrend(
        { battery: 3.4, unit: 'V', earlier: { battery: 3.4, at: daysAgo(14) }, lowPercent: null },
        2.7,
        now,
      ),
    ).toEqual({ perWeek: 0, daysLeft: null });
    expect(batteryTrend({ battery: null, unit: null, earlier: null, lowPercent: null }, 2.7, now)).toBeNull();
  });
});
