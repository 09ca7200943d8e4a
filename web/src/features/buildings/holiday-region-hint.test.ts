import { describe, expect, it } from 'vitest';
import { regionByPostcode } from './holiday-region-hint.ts';

describe('regionByPostcode', () => {
  it('points an Augsburg postcode to Stadt Augsburg, and a Munich one to none', () => {
    expect(regionByPostcode('BY', '86150')).toBe('A');
    expect(regionByPostcode('BY', '86199')).toBe('A');
    expect(regionByPostcode('BY', '80331')).toBeNull();
  });

  it('finds Thuringia’s and Saxony’s districts with Fronleichnam', () => {
    expect(regionByPostcode('TH', '37308')).toBe('EIC');
    expect(regionByPostcode('TH', '99974')).toBe('UH');
    expect(regionByPostcode('TH', '36433')).toBe('WAK');
    expect(regionByPostcode('TH', '99084')).toBeNull();
    expect(regionByPostcode('SN', '02625')).toBe('BZ');
    expect(regionByPostcode('SN', '01067')).toBeNull();
  });

  it('suggests nothing for another state’s range, an empty or a malformed postcode', () => {
    expect(regionByPostcode('BW', '86150')).toBeNull();
    expect(regionByPostcode('BY', '')).toBeNull();
    expect(regionByPostcode('BY', '8615')).toBeNull();
  });
});
