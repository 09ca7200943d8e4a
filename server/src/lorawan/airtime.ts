/**
 * LoRa time on air and a device's daily airtime budget (docs/decisions/0062).
 *
 * Time on air per Semtech AN1200.13 "LoRa Modem Designer's Guide": with symbol time
 * T_sym = 2^SF / BW, preamble (n + 4.25)·T_sym and
 * payload symbols 8 + max(ceil((8·PL − 4·SF + 28 + 16·CRC − 20·IH) / (4·(SF − 2·DE)))·(CR + 4), 0),
 * where PL is the PHY payload (the application payload plus LoRaWAN's 13 bytes: MHDR 1,
 * FHDR 7, FPort 1, MIC 4), CRC on, explicit header (IH = 0), coding rate 4/5 (CR = 1), an
 * 8-symbol preamble and low-data-rate optimisation (DE = 1) where a symbol lasts over 16 ms
 * (SF11 and SF12 at 125 kHz). A 22-byte PHY payload takes 57 ms at SF7, 371 ms at SF10 and
 * 1,483 ms at SF12.
 *
 * Budget: The Things Network's fair-use policy allows 30 s of uplink airtime per device and
 * day; elsewhere the default is the 1 % duty cycle of the EU868 g1 sub-band (ETSI EN 300 220),
 * 864 s a day. Downlinks count against the same budget here, so a valve's configuration traffic
 * never pushes it past what its network allows.
 */

/** LoRaWAN's bytes around the application payload: MHDR 1, FHDR 7 (no FOpts), FPort 1, MIC 4. */
export const LORAWAN_OVERHEAD_BYTES = 13;
/** The Things Network's fair-use uplink airtime per device and day, ms. */
export const TTN_FAIR_USE_MS = 30_000;
/** 1 % of a day (EU868 g1 duty cycle), ms. */
export const DUTY_CYCLE_MS = 864_000;
/** Assumed where a device's spreading factor is not known yet: the slowest, so budgets hold. */
export const UNKNOWN_SF = 12;

/**
 * Time on air of one LoRa frame, ms (AN1200.13).
 * @param sf spreading factor 7…12; @param phyBytes PHY payload length, bytes.
 */
export function timeOnAirMs(sf: number, phyBytes: number, bandwidthHz = 125_000): number {
  const symbolMs = (2 ** sf / bandwidthHz) * 1000;
  const de = symbolMs > 16 ? 1 : 0;
  const preambleMs = (8 + 4.25) * symbolMs;
  const payloadSymbols =
    8 + Math.max(Math.ceil((8 * phyBytes - 4 * sf + 28 + 16) / (4 * (sf - 2 * de))) * (1 + 4), 0);
  return preambleMs + payloadSymbols * symbolMs;
}

/** Time on air of a LoRaWAN frame carrying `appBytes` of application payload, ms. */
export const frameAirtimeMs = (sf: number, appBytes: number) =>
  timeOnAirMs(sf, appBytes + LORAWAN_OVERHEAD_BYTES);

/** Airtime a device's regular uplinks take per day, ms: one `appBytes` frame every `intervalS`. */
export const uplinkAirtimePerDayMs = (sf: number, appBytes: number, intervalS: number) =>
  (86_400 / intervalS) * frameAirtimeMs(sf, appBytes);

/**
 * The shortest whole-minute reporting interval whose uplinks stay within `budgetMs` a day,
 * leaving `reserveMs` for downlinks; null when even 255 minutes (the longest keep-alive) do not.
 */
export function fittingIntervalMinutes(
  sf: number,
  appBytes: number,
  budgetMs: number,
  reserveMs = 0,
): number | null {
  const perFrame = frameAirtimeMs(sf, appBytes);
  const frames = Math.floor((budgetMs - reserveMs) / perFrame);
  if (frames <= 0) return null;
  const minutes = Math.ceil(1440 / frames);
  return minutes <= 255 ? Math.max(1, minutes) : null;
}

/**
 * Largest application payload a downlink may carry at `sf` in EU868, bytes (LoRaWAN Regional
 * Parameters RP002, EU863-870: DR0–2 51, DR3 115, DR4–5 222).
 */
export const maxPayloadBytes = (sf: number) => (sf >= 10 ? 51 : sf === 9 ? 115 : 222);

/** The daily airtime budget per device, ms: `AIRTIME_BUDGET_S` if set, else by network server. */
export function airtimeBudgetMs(networkServer: 'chirpstack' | 'tts', configuredS?: number): number {
  if (configuredS !== undefined) return configuredS * 1000;
  return networkServer === 'tts' ? TTN_FAIR_USE_MS : DUTY_CYCLE_MS;
}
