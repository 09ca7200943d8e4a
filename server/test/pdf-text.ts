/**
 * Reading back what a pdfkit PDF draws, for tests of the invoice and the report PDFs: render with
 * `compress: false`, then `pdfText` decodes the text operators.
 */

/** WinAnsi bytes that differ from Latin-1 and can appear on an invoice or a report. */
const WIN_ANSI: Record<number, string> = { 128: '€', 132: '„', 147: '“', 148: '”', 150: '–', 151: '—' };

/**
 * The text of an uncompressed pdfkit PDF, one line per text operator, no-break spaces as
 * spaces: pdfkit draws each line as `[<hex> kerning <hex> …] TJ` in WinAnsi.
 */
export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  for (const [, operands = ''] of pdf.toString('latin1').matchAll(/\[([^\]]*)\] TJ/g)) {
    let line = '';
    for (const [, hex = ''] of operands.matchAll(/<([0-9a-f]*)>/gi)) {
      for (const byte of Buffer.from(hex, 'hex')) line += WIN_ANSI[byte] ?? String.fromCharCode(byte);
    }
    lines.push(line.replace(/\u00a0/g, ' ').trim());
  }
  return lines.join('\n');
}
