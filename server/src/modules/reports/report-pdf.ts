/**
 * The monthly report as a PDF (decision 0061), drawn with pdfkit's built-in Helvetica (WinAnsi:
 * umlauts, °, ², Ø, • and – print; ≥ does not, so the texts avoid it) in German or English, numbers in the language's format
 * (`21,5 °C` / `21.5 °C`): the period and scope, comfort, heating, degree-day comparison,
 * consumption, the saving estimate with its method in plain words, efficiency losses, missed
 * target values and the rooms or buildings below.
 */
import type { Report } from '@heizplan/contracts/reports';
import { DateTime } from 'luxon';
import PDFDocument from 'pdfkit';

type Lang = 'de' | 'en';

const TEXT = {
  de: {
    title: 'Energie- und Komfortbericht',
    company: 'Unternehmen',
    rooms: 'Räume mit Messwerten',
    comfort: 'Komfort',
    occupied: 'Belegte Stunden (Komfort-Sollwert)',
    below: 'Davon unter Komfort (mehr als 0,5 K unter Sollwert)',
    categories: 'Stunden nach EN 16798-1: I ab 21 °C / II ab 20 °C / III ab 19 °C / darunter',
    heating: 'Heizen',
    heatingHours: 'Heizstunden (Ventil offen)',
    setback: 'Absenkstunden (Raum abgekühlt)',
    window: 'Geheizt bei offenem Fenster',
    overrides: 'Änderungen per Web / QR-Code (Anzahl, Stunden)',
    weather: 'Witterung',
    degreeDays: 'Gradtage G20/15 (VDI 3807)',
    perDegreeDay: 'Heizstunden je Raum und Gradtag',
    previous: 'Vorperiode',
    previousYear: 'Vorjahr',
    change: 'Veränderung witterungsbereinigt',
    outdoor: 'Mittlere Außentemperatur',
    energy: 'Verbrauch (Zählerstände)',
    kwhPerDegreeDay: 'kWh je Gradtag',
    kwhPerM2: 'kWh je m² beheizter Fläche',
    noMeter: 'Keine Zählerstände erfasst.',
    saving: 'Geschätzte Einsparung',
    extra: 'Geschätzter Mehrverbrauch',
    savingMethod:
      'Schätzung, keine Messung: Die Wärmeverluste eines Raums werden als proportional zur Differenz aus Raum- und Außentemperatur angenommen und mit einem Referenzplan verglichen, der werktags 07:00–18:00 Uhr auf den Komfort-Sollwert des Raums heizt und sonst 4 K absenkt, ohne Schließzeiten.',
    losses: 'Effizienzverluste',
    noLosses: 'Keine Effizienzverluste erkannt.',
    lossKinds: {
      window_open_heating: 'Geheizt bei offenem Fenster',
      valve_stuck_open: 'Ventil offen, Raum zu warm',
      always_below_target: 'Raum fast immer unter Sollwert',
      sparse_reports: 'Gerät meldet zu selten',
      complaints_despite_comfort:
        'Beschwerden trotz Komfortwerten: Fühler falsch platziert, Zugluft oder ein Plan, der die Nutzung verfehlt?',
    },
    complaints: 'Beschwerden',
    feedback: 'Rückmeldungen der Raumnutzer: zu warm / zu kalt',
    targets: 'Zielwerte verfehlt',
    targetKinds: {
      heating_hours_per_degree_day: 'Heizstunden je Gradtag über dem Zielwert',
      below_comfort_share: 'Anteil unter Komfort über dem Zielwert',
    },
    table: ['Name', 'Räume', 'Ø Raum', 'Belegt h', 'Unter Komfort', 'Heizen h', 'Fenster h', 'Warm/Kalt'],
    noBuilding: 'Ohne Gebäude',
    hours: 'h',
  },
  en: {
    title: 'Energy and comfort report',
    company: 'Company',
    rooms: 'Rooms with readings',
    comfort: 'Comfort',
    occupied: 'Occupied hours (comfort setpoint)',
    below: 'Of these below comfort (more than 0.5 K below setpoint)',
    categories: 'Hours by EN 16798-1: I from 21 °C / II from 20 °C / III from 19 °C / below',
    heating: 'Heating',
    heatingHours: 'Heating hours (valve open)',
    setback: 'Setback hours (room cooled)',
    window: 'Heated with a window open',
    overrides: 'Changes on the web / by QR code (count, hours)',
    weather: 'Weather',
    degreeDays: 'Degree days G20/15 (VDI 3807)',
    perDegreeDay: 'Heating hours per room and degree day',
    previous: 'Previous period',
    previousYear: 'Previous year',
    change: 'Change, weather-normalised',
    outdoor: 'Mean outdoor temperature',
    energy: 'Consumption (meter readings)',
    kwhPerDegreeDay: 'kWh per degree day',
    kwhPerM2: 'kWh per m² heated area',
    noMeter: 'No meter readings entered.',
    saving: 'Estimated saving',
    extra: 'Estimated extra use',
    savingMethod:
      "An estimate, not a measurement: a room's heat loss is taken as proportional to room minus outdoor temperature and compared with a reference schedule that heats to the room's comfort setpoint 07:00–18:00 on weekdays and sets back by 4 K otherwise, without closures.",
    losses: 'Efficiency losses',
    noLosses: 'No efficiency losses found.',
    lossKinds: {
      window_open_heating: 'Heated with a window open',
      valve_stuck_open: 'Valve open, room too warm',
      always_below_target: 'Room almost always below setpoint',
      sparse_reports: 'Device reports too rarely',
      complaints_despite_comfort:
        'Complaints despite comfortable figures: sensor in the wrong place, a draught, or a plan that misses the use?',
    },
    complaints: 'complaints',
    feedback: 'Feedback from occupants: too warm / too cold',
    targets: 'Target values missed',
    targetKinds: {
      heating_hours_per_degree_day: 'Heating hours per degree day above the target',
      below_comfort_share: 'Share below comfort above the target',
    },
    table: ['Name', 'Rooms', 'Room Ø', 'Occupied h', 'Below comfort', 'Heating h', 'Window h', 'Warm/cold'],
    noBuilding: 'No building',
    hours: 'h',
  },
} as const;

/** Number formatting of `lang`; null prints as a dash. */
export function formatters(lang: Lang) {
  const locale = lang === 'de' ? 'de-DE' : 'en-GB';
  const fmt = (digits: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: digits });
  const dash = (f: (v: number) => string) => (v: number | null | undefined) =>
    v === null || v === undefined || !Number.isFinite(v) ? '–' : f(v);
  return {
    num: (digits: number) => dash((v) => fmt(digits).format(v)),
    celsius: dash((v) => `${fmt(1).format(v)} °C`),
    percent: dash((v) => `${fmt(0).format(v * 100)} %`),
    change: dash((v) => `${v > 0 ? '+' : ''}${fmt(0).format(v * 100)} %`),
    month: (key: string) => DateTime.fromFormat(key, 'yyyy-MM').setLocale(locale).toFormat('LLLL yyyy'),
  };
}

/** Renders `report` as an A4 PDF in `lang`. `compress: false` lets tests read the drawn text. */
export function renderReportPdf(
  report: Report,
  lang: Lang,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const t = TEXT[lang];
  const f = formatters(lang);
  const periodLabel =
    report.period.kind === 'month'
      ? f.month(report.period.key)
      : `${report.period.key}/${(Number(report.period.key) + 1) % 100}`;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 48,
    compress: options.compress ?? true,
    info: { Title: `${t.title} ${periodLabel}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const h = f.num(1);
  const heading = (text: string) =>
    doc.moveDown(0.8).font('Helvetica-Bold').fontSize(12).text(text).font('Helvetica').fontSize(10);
  const line = (label: string, value: string) => doc.text(`${label}: ${value}`, { width });

  doc.font('Helvetica-Bold').fontSize(18).text(`${t.title} – ${periodLabel}`);
  doc
    .font('Helvetica')
    .fontSize(11)
    .text(report.scope.kind === 'company' ? `${t.company} ${report.scope.name}` : report.scope.name);
  line(t.rooms, String(report.rooms));

  heading(t.comfort);
  line(t.occupied, `${h(report.comfort.occupiedHours)} ${t.hours}`);
  line(
    t.below,
    `${h(report.comfort.belowComfortHours)} ${t.hours} (${f.percent(report.comfort.belowComfortShare)})`,
  );
  const c = report.comfort.categoryHours;
  line(t.categories, [c.i, c.ii, c.iii, c.below].map((v) => h(v)).join(' / '));
  line(t.feedback, `${report.comfort.feedback.tooWarm} / ${report.comfort.feedback.tooCold}`);

  heading(t.heating);
  line(t.heatingHours, `${h(report.heating.heatingHours)} ${t.hours}`);
  line(t.setback, `${h(report.heating.setbackHours)} ${t.hours}`);
  line(t.window, `${h(report.heating.windowHeatingHours)} ${t.hours}`);
  const o = report.heating.overrides;
  line(
    t.overrides,
    `${o.web.count}, ${h(o.web.hours)} ${t.hours} / ${o.qr.count}, ${h(o.qr.hours)} ${t.hours}`,
  );

  heading(t.weather);
  const w = report.weather;
  line(t.outdoor, f.celsius(w.outdoorMean));
  line(
    t.degreeDays,
    `${f.num(0)(w.current.degreeDays)} (${t.previous} ${f.num(0)(w.previous.degreeDays)}, ${t.previousYear} ${f.num(0)(w.previousYear.degreeDays)})`,
  );
  line(t.perDegreeDay, f.num(2)(w.current.heatingHoursPerDegreeDay));
  line(
    `${t.change} (${t.previous} / ${t.previousYear})`,
    `${f.change(w.changeToPrevious)} / ${f.change(w.changeToPreviousYear)}`,
  );

  heading(t.energy);
  if (report.energy.kwh === null) doc.text(t.noMeter);
  else {
    line(
      'kWh',
      `${f.num(0)(report.energy.kwh)} (${report.energy.carriers.map((x) => `${x.carrier} ${f.num(0)(x.kwh)}`).join(', ')})`,
    );
    line(t.kwhPerDegreeDay, f.num(1)(report.energy.kwhPerDegreeDay));
    line(t.kwhPerM2, f.num(1)(report.energy.kwhPerM2));
  }

  // As on the screen: a negative saving is extra use, named so and shown without its sign.
  const extra = report.saving.share !== null && report.saving.share < 0;
  const savingTitle = extra ? t.extra : t.saving;
  heading(savingTitle);
  line(savingTitle, f.percent(report.saving.share === null ? null : Math.abs(report.saving.share)));
  doc.fontSize(8).fillColor('#555555').text(t.savingMethod, { width }).fillColor('#000000').fontSize(10);

  heading(t.losses);
  if (report.losses.length === 0) doc.text(t.noLosses);
  for (const loss of report.losses) {
    const value =
      loss.kind === 'window_open_heating' || loss.kind === 'valve_stuck_open'
        ? `${h(loss.value)} ${t.hours}`
        : loss.kind === 'complaints_despite_comfort'
          ? `${loss.value} ${t.complaints}`
          : f.percent(loss.value);
    doc.text(`• ${loss.name}: ${t.lossKinds[loss.kind]} (${value})`, { width });
  }
  if (report.targets.missed.length > 0) {
    heading(t.targets);
    for (const kind of report.targets.missed) doc.text(`• ${t.targetKinds[kind]}`, { width });
  }

  if (report.rows.length > 0) {
    doc.addPage();
    const columns = [130, 40, 50, 55, 65, 50, 50, 59];
    const cells = (values: string[], bold = false) => {
      const y = doc.y;
      let x = doc.page.margins.left;
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
      values.forEach((v, i) => {
        doc.text(v, x, y, { width: (columns[i] ?? 50) - 4, lineBreak: false, ellipsis: true });
        x += columns[i] ?? 50;
      });
      doc.x = doc.page.margins.left;
      doc.moveDown(0.4);
      if (doc.y > doc.page.height - doc.page.margins.bottom - 20) doc.addPage();
    };
    cells([...t.table], true);
    for (const row of report.rows)
      cells([
        row.name || t.noBuilding,
        String(row.rooms),
        f.celsius(row.roomMean),
        h(row.occupiedHours),
        f.percent(row.belowComfortShare),
        h(row.heatingHours),
        h(row.windowHeatingHours),
        `${row.tooWarm} / ${row.tooCold}`,
      ]);
  }
  doc.end();
  return done;
}
