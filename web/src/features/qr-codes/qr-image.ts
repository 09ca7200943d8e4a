/**
 * QR code images for doors: the code with the unit's name and the short URL under it,
 * as SVG (vector, for print shops) and PNG (for office printers and messengers). Drawn with the
 * `qrcode` library; error correction M keeps a slightly scuffed sticker readable.
 */
import QRCode from 'qrcode';

const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 2 } as const;
/** Size of the labelled image in px (SVG user units): the code on top, two text lines below. */
const SIZE = 320;
const LABEL_HEIGHT = 64;

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

/** The bare QR code of `url` as an SVG document. */
export function qrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { ...QR_OPTIONS, type: 'svg' });
}

/** `url`'s QR code with `name` and `url` printed under it, as one SVG document. */
export async function labelledQrSvg(url: string, name: string): Promise<string> {
  const code = await qrSvg(url);
  const inner = code.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
  const viewBox = code.match(/viewBox="([^"]+)"/)?.[1] ?? '0 0 33 33';
  // A monospace glyph is ~0.6 em wide: shrink long links so they fit the card's width.
  const urlFontSize = Math.min(12, (SIZE - 16) / (url.length * 0.6)).toFixed(1);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE + LABEL_HEIGHT}" viewBox="0 0 ${SIZE} ${SIZE + LABEL_HEIGHT}">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<svg x="0" y="0" width="${SIZE}" height="${SIZE}" viewBox="${viewBox}" shape-rendering="crispEdges">${inner}</svg>`,
    `<text x="${SIZE / 2}" y="${SIZE + 22}" text-anchor="middle" font-family="system-ui, sans-serif" font-size="20" font-weight="600" fill="#1c1917">${escapeXml(name)}</text>`,
    `<text x="${SIZE / 2}" y="${SIZE + 48}" text-anchor="middle" font-family="ui-monospace, monospace" font-size="${urlFontSize}" fill="#44403c">${escapeXml(url)}</text>`,
    '</svg>',
  ].join('');
}

/** A file name for `name`'s code: letters, digits and dashes only. */
export function qrFileName(name: string, extension: 'svg' | 'png'): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/\p{Mn}/gu, '')
      .replace(/[^\w-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'qr-code';
  return `qr-${base}.${extension}`;
}

function download(blob: Blob, fileName: string) {
  const href = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href, download: fileName });
  link.click();
  setTimeout(() => URL.revokeObjectURL(href), 0);
}

export async function downloadSvg(url: string, name: string) {
  download(new Blob([await labelledQrSvg(url, name)], { type: 'image/svg+xml' }), qrFileName(name, 'svg'));
}

/** Renders the labelled SVG at 2× onto a canvas and downloads it as PNG. */
export async function downloadPng(url: string, name: string) {
  const svg = await labelledQrSvg(url, name);
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = Object.assign(document.createElement('canvas'), {
    width: SIZE * 2,
    height: (SIZE + LABEL_HEIGHT) * 2,
  });
  const context = canvas.getContext('2d');
  if (!context) throw new Error('Canvas is not available.');
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('PNG could not be created.');
  download(blob, qrFileName(name, 'png'));
}
