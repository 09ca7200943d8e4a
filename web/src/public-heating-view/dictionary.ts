/**
 * The public heating view's few strings in German and English (no i18next on this
 * page). German unless the browser prefers English before German (spec §1: German default).
 */
const de = {
  title: 'Raumtemperatur',
  room: 'Raumtemperatur',
  setpoint: 'Solltemperatur',
  lower: 'Solltemperatur um 0,5 °C senken',
  raise: 'Solltemperatur um 0,5 °C erhöhen',
  noReading: 'Noch keine Messung',
  lastReading: 'Gemessen {time}',
  valve: 'Ventil {percent} % geöffnet',
  override: 'Ein Wandthermostat übersteuert gerade die Solltemperatur.',
  delivering:
    'Die Solltemperatur wird an das Ventil übertragen. Batteriebetriebene Ventile holen sie bei ihrer nächsten Meldung ab, meist innerhalb weniger Minuten.',
  noOverride: 'Kein Wandthermostat übersteuert die Solltemperatur.',
  paused: 'Die Heizung dieses Raums ist pausiert. Änderungen sind gerade nicht möglich.',
  closed: 'Für diesen Raum gilt gerade eine Schließzeit. Änderungen sind erst nach ihrem Ende möglich.',
  holdsUntil: 'Ihre Änderung gilt bis {time}.',
  holdsUntilNextSwitch: 'Ihre Änderung gilt bis zum nächsten Schaltpunkt des Heizplans.',
  next: 'Danach: {setpoint} ab {time}',
  saving: 'Wird gespeichert …',
  announceSaving: 'Solltemperatur {setpoint} wird gespeichert …',
  announceSaved: 'Solltemperatur {setpoint} gespeichert.',
  announceDelivering: 'Solltemperatur {setpoint} gespeichert. Sie wird an das Ventil übertragen.',
  loading: 'Wird geladen …',
  notFound: 'Dieser QR-Code ist nicht mehr gültig. Bitte wenden Sie sich an die Hausverwaltung.',
  error: 'Daten konnten nicht geladen werden.',
  retry: 'Erneut versuchen',
  imprint: 'Impressum',
  privacy: 'Datenschutz',
  legal: 'Rechtliches',
  accessibility: 'Barrierefreiheit',
  /** The server's accessibility statement in this language. */
  accessibilityHref: '/legal/barrierefreiheit.html',
  tooMany: 'Zu viele Anfragen. Bitte in {seconds} Sekunden erneut versuchen.',
  refused: 'Die Änderung wurde nicht angenommen. Bitte laden Sie die Seite neu.',
  refusedLimits: 'Wählen Sie eine Temperatur zwischen {min} und {max}.',
  refusedStep: 'Die Temperatur lässt sich nur in Schritten von {step} ändern.',
  limits: 'Einstellbar von {min} bis {max}',
  feedbackTitle: 'Wie fühlt sich der Raum an?',
  tooWarm: 'Zu warm',
  tooCold: 'Zu kalt',
  feedbackSending: 'Wird gesendet …',
  feedbackThanks: 'Danke, Ihre Rückmeldung ist angekommen.',
  feedbackWait: 'Eine weitere Rückmeldung aus diesem Browser ist ab {time} möglich.',
  feedbackFailed: 'Ihre Rückmeldung konnte nicht gesendet werden. Bitte versuchen Sie es erneut.',
  helpTitle: 'Der Heizkörper wird nicht warm?',
  gapOk:
    'Die Solltemperatur liegt {gap} über der Raumtemperatur – mehr als 1,5 °C, der Heizkörper soll heizen.',
  gapLow:
    'Die Raumtemperatur liegt nur {gap} unter der Solltemperatur. Erst ab mehr als 1,5 °C Abstand heizt der Heizkörper spürbar.',
  gapNone:
    'Die Raumtemperatur entspricht der Solltemperatur. Erst wenn der Raum mehr als 1,5 °C kälter ist, heizt der Heizkörper spürbar.',
  gapAbove:
    'Der Raum ist {gap} wärmer als die Solltemperatur. Der Heizkörper muss daher nicht heizen; er heizt erst, wenn der Raum mehr als 1,5 °C kälter ist als die Solltemperatur.',
  gapUnknown: 'Es gibt noch keine Raumtemperatur; der Abstand zur Solltemperatur ist unbekannt.',
  valveOpen: 'Die Anlage steuert den Heizkörper an: Das Ventil ist zu {percent} % geöffnet.',
  valveClosed: 'Die Anlage steuert den Heizkörper gerade nicht an: Das Ventil ist geschlossen.',
  valveUnknown: 'Das Ventil hat noch keinen Zustand gemeldet.',
  planNow: 'Der Heizplan sieht jetzt {setpoint} vor.',
  planNext: 'Der Heizplan sieht jetzt {setpoint} vor, ab {time} dann {next}.',
  eventNow: 'Ein Termin gibt jetzt {setpoint} vor.',
  eventNext: 'Ein Termin gibt jetzt {setpoint} vor, ab {time} dann {next}.',
  manualNow: 'Die Hausverwaltung hat {setpoint} eingestellt.',
  manualNext: 'Die Hausverwaltung hat {setpoint} eingestellt, ab {time} gilt wieder der Heizplan mit {next}.',
  occupantNow: 'Ein Raumnutzer hat {setpoint} eingestellt.',
  occupantNext: 'Ein Raumnutzer hat {setpoint} eingestellt, ab {time} gilt wieder der Heizplan mit {next}.',
  pausedNow: 'Die Heizung dieses Raums ist pausiert und hält {setpoint} (Frostschutz).',
  closureNow: 'Eine Schließzeit gibt jetzt {setpoint} vor.',
  closureNext: 'Eine Schließzeit gibt jetzt {setpoint} vor, ab {time} dann {next}.',
  bookingNow: 'Eine Buchung dieses Raums gibt jetzt {setpoint} vor.',
  bookingNext: 'Eine Buchung dieses Raums gibt jetzt {setpoint} vor, ab {time} dann {next}.',
  verdictHeat:
    'Alles spricht dafür, dass der Heizkörper heizen sollte. Bleibt er kalt, wenden Sie sich bitte an die Systemverwaltung.',
  verdictNoNeed:
    'Der Heizkörper muss gerade nicht heizen. Erhöhen Sie die Solltemperatur oder warten Sie auf den nächsten Schaltpunkt; bleibt es zu kalt, wenden Sie sich an die Systemverwaltung.',
  verdictValve:
    'Das Ventil sollte sich bei seiner nächsten Meldung öffnen (batteriebetriebene Ventile melden sich alle paar Minuten). Bleibt es geschlossen, wenden Sie sich bitte an die Systemverwaltung.',
  verdictUnknown:
    'Es fehlen noch Messwerte. Bleibt der Heizkörper kalt, wenden Sie sich bitte an die Systemverwaltung.',
};

type Dictionary = typeof de;

const en: Dictionary = {
  title: 'Room temperature',
  room: 'Room temperature',
  setpoint: 'Setpoint',
  lower: 'Lower the setpoint by 0.5 °C',
  raise: 'Raise the setpoint by 0.5 °C',
  noReading: 'No reading yet',
  lastReading: 'Measured {time}',
  valve: 'Valve {percent} % open',
  override: 'A wall thermostat is overriding the setpoint right now.',
  delivering:
    'The setpoint is being sent to the valve. Battery valves pick it up at their next report, usually within a few minutes.',
  noOverride: 'No wall thermostat is overriding the setpoint.',
  paused: 'Heating of this room is paused. Changes are not possible right now.',
  closed: 'This room is closed for now (a closure). Changes are possible again when it ends.',
  holdsUntil: 'Your change holds until {time}.',
  holdsUntilNextSwitch: "Your change holds until the heating plan's next switch point.",
  next: 'Then: {setpoint} from {time}',
  saving: 'Saving …',
  announceSaving: 'Saving setpoint {setpoint} …',
  announceSaved: 'Setpoint {setpoint} saved.',
  announceDelivering: 'Setpoint {setpoint} saved. It is being sent to the valve.',
  loading: 'Loading …',
  notFound: 'This QR code is no longer valid. Please contact your property management.',
  error: 'Data could not be loaded.',
  retry: 'Try again',
  imprint: 'Legal notice (Impressum)',
  privacy: 'Privacy notice (German)',
  legal: 'Legal',
  accessibility: 'Accessibility',
  accessibilityHref: '/legal/accessibility.html',
  tooMany: 'Too many requests. Please try again in {seconds} seconds.',
  refused: 'The change was not accepted. Please reload the page.',
  refusedLimits: 'Choose a temperature between {min} and {max}.',
  refusedStep: 'The temperature can only be changed in steps of {step}.',
  limits: 'Adjustable from {min} to {max}',
  feedbackTitle: 'How does the room feel?',
  tooWarm: 'Too warm',
  tooCold: 'Too cold',
  feedbackSending: 'Sending …',
  feedbackThanks: 'Thank you, your feedback has arrived.',
  feedbackWait: 'You can give feedback again from this browser from {time}.',
  feedbackFailed: 'Your feedback could not be sent. Please try again.',
  helpTitle: 'Radiator not getting warm?',
  gapOk: 'The setpoint is {gap} above the room temperature – more than 1.5 °C, so the radiator should heat.',
  gapLow:
    'The room is only {gap} below the setpoint. The radiator heats noticeably only when the gap exceeds 1.5 °C.',
  gapNone:
    'The room is exactly at the setpoint. The radiator heats noticeably only when the room is more than 1.5 °C colder.',
  gapAbove:
    'The room is {gap} warmer than the setpoint, so the radiator does not need to heat; it heats once the room is more than 1.5 °C colder than the setpoint.',
  gapUnknown: 'There is no room temperature yet, so the gap to the setpoint is unknown.',
  valveOpen: 'The system is asking the radiator to heat: its valve is {percent} % open.',
  valveClosed: 'The system is not asking the radiator to heat right now: its valve is closed.',
  valveUnknown: 'The valve has not reported its state yet.',
  planNow: 'The heating plan sets {setpoint} now.',
  planNext: 'The heating plan sets {setpoint} now, then {next} from {time}.',
  eventNow: 'An event sets {setpoint} now.',
  eventNext: 'An event sets {setpoint} now, then {next} from {time}.',
  manualNow: 'The property management set {setpoint}.',
  manualNext:
    'The property management set {setpoint}; from {time} the heating plan applies again with {next}.',
  occupantNow: 'An occupant set {setpoint}.',
  occupantNext: 'An occupant set {setpoint}; from {time} the heating plan applies again with {next}.',
  pausedNow: 'Heating of this room is paused and holds {setpoint} (frost protection).',
  closureNow: 'A closure sets {setpoint} now.',
  closureNext: 'A closure sets {setpoint} now, then {next} from {time}.',
  bookingNow: 'A booking of this room sets {setpoint} now.',
  bookingNext: 'A booking of this room sets {setpoint} now, then {next} from {time}.',
  verdictHeat:
    'Everything says the radiator should heat. If it stays cold, please contact your system administrator.',
  verdictNoNeed:
    'The radiator does not need to heat right now. Raise the setpoint or wait for the next switch point; if it stays too cold, contact your system administrator.',
  verdictValve:
    'The valve should open at its next report (battery valves report every few minutes). If it stays closed, please contact your system administrator.',
  verdictUnknown:
    'Some readings are still missing. If the radiator stays cold, please contact your system administrator.',
};

export type Language = 'de' | 'en';
export type TextKey = keyof Dictionary;

/** German unless English comes before German in the browser's preferred languages. */
export function pickLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'de') return 'de';
    if (base === 'en') return 'en';
  }
  return 'de';
}

/** `key`'s text in `lang` with `{name}` placeholders filled. */
export function text(lang: Language, key: TextKey, values: Record<string, string | number> = {}): string {
  return (lang === 'en' ? en : de)[key].replace(/\{(\w+)\}/g, (_, name: string) =>
    String(values[name] ?? ''),
  );
}
