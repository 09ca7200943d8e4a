/**
 * A heating mode as the closures screen names it: with the temperature it keeps from the
 * company's settings — "Absenkbetrieb (16 °C)" — once the company has loaded (the shared
 * `lib/heating/heating-modes.ts`, worded from the `closures` namespace).
 */
import {
  type ModeTemperatures,
  useModeLabel as useSharedModeLabel,
} from '../../lib/heating/heating-modes.ts';

export { type ModeTemperatures, modeTemperatures } from '../../lib/heating/heating-modes.ts';

export const useModeLabel = (temperatures: ModeTemperatures) => useSharedModeLabel(temperatures, 'closures');
