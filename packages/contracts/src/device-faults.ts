/**
 * What each device fault flag means and what to do about it, in German and English: one text for
 * the web's alert list and the server's alert mails, so a mail never shows a raw code such as
 * "calibrationFailed". Codes come from the device codecs (vendor documents: MClimate Vicki,
 * Milesight WT101, Micropelt MLR003, Elsys ERS); an unknown code is worded by `unknown` with
 * `{{code}}` filled in.
 */
export type FaultLanguage = 'de' | 'en';

export interface FaultText {
  /** What is wrong. */
  text: string;
  /** What to do. */
  action: string;
}

export const DEVICE_FAULT_TEXTS: Record<FaultLanguage, Record<string, FaultText>> = {
  de: {
    highMotorConsumption: {
      text: 'Der Ventilmotor braucht zu viel Strom.',
      action: 'Ventilstift gängig machen oder Gerät neu montieren.',
    },
    lowMotorConsumption: {
      text: 'Der Ventilmotor braucht zu wenig Strom – er greift nicht.',
      action: 'Sitz des Geräts auf dem Ventil prüfen.',
    },
    brokenSensor: {
      text: 'Der Temperatursensor ist defekt.',
      action: 'Gerät tauschen lassen.',
    },
    calibrationFailed: {
      text: 'Die Kalibrierung ist fehlgeschlagen.',
      action: 'Gerät neu montieren und Kalibrierung wiederholen.',
    },
    lowEnergyStore: {
      text: 'Der Energiespeicher ist fast leer.',
      action: 'Heizkörper warm werden lassen oder Gerät laden; sonst stoppt der Motor.',
    },
    ambientSensorFailure: {
      text: 'Der Raumtemperatursensor ist ausgefallen.',
      action: 'Gerät prüfen und gegebenenfalls tauschen.',
    },
    flowSensorFailure: {
      text: 'Der Vorlaufsensor ist ausgefallen.',
      action: 'Gerät prüfen und gegebenenfalls tauschen.',
    },
    radioCommunicationError: {
      text: 'Das Gerät hat Funkprobleme.',
      action: 'Abstand zum Gateway prüfen.',
    },
    motorError: {
      text: 'Der Ventilmotor hat einen Fehler gemeldet.',
      action: 'Gerät neu montieren; besteht der Fehler, tauschen.',
    },
    zeroError: {
      text: 'Die Ventilstellung konnte nicht ermittelt werden.',
      action: 'Referenzfahrt auslösen oder Gerät neu montieren.',
    },
    uninstalled: {
      text: 'Das Gerät ist nicht am Ventil montiert.',
      action: 'Gerät auf das Ventil setzen.',
    },
    unknown: {
      text: 'Das Gerät meldet den Fehler „{{code}}“.',
      action: 'Anleitung des Herstellers prüfen.',
    },
  },
  en: {
    highMotorConsumption: {
      text: 'The valve motor draws too much current.',
      action: 'Free the valve pin or mount the device again.',
    },
    lowMotorConsumption: {
      text: 'The valve motor draws too little current – it does not engage.',
      action: 'Check how the device sits on the valve.',
    },
    brokenSensor: {
      text: 'The temperature sensor is broken.',
      action: 'Have the device replaced.',
    },
    calibrationFailed: {
      text: 'Calibration failed.',
      action: 'Mount the device again and repeat the calibration.',
    },
    lowEnergyStore: {
      text: 'The energy store is almost empty.',
      action: 'Let the radiator warm up or charge the device; otherwise the motor stops.',
    },
    ambientSensorFailure: {
      text: 'The room temperature sensor failed.',
      action: 'Check the device and replace it if needed.',
    },
    flowSensorFailure: {
      text: 'The supply temperature sensor failed.',
      action: 'Check the device and replace it if needed.',
    },
    radioCommunicationError: {
      text: 'The device has radio problems.',
      action: 'Check its distance to the gateway.',
    },
    motorError: {
      text: 'The valve motor reported an error.',
      action: 'Mount the device again; replace it if the error persists.',
    },
    zeroError: {
      text: 'The valve position could not be found.',
      action: 'Trigger a reference run or mount the device again.',
    },
    uninstalled: {
      text: 'The device is not mounted on the valve.',
      action: 'Put the device on the valve.',
    },
    unknown: {
      text: 'The device reports the fault “{{code}}”.',
      action: "Check the manufacturer's manual.",
    },
  },
};

/** The fault `code` in `lang`; an unknown code gets the generic text naming it. */
export function faultText(code: string, lang: FaultLanguage): FaultText {
  const texts = DEVICE_FAULT_TEXTS[lang];
  const known = Object.hasOwn(texts, code) && code !== 'unknown' ? texts[code] : undefined;
  if (known) return known;
  const generic = texts.unknown as FaultText;
  return { text: generic.text.replace('{{code}}', code), action: generic.action };
}
