/**
 * A fake camera for journeys through the QR scanner on /assign: Chromium plays a Y4M video file
 * as its only camera (`--use-file-for-fake-video-capture`) and grants camera access without a
 * prompt (`--use-fake-ui-for-media-stream`). `qrCodeVideo` writes such a file showing one QR
 * code, drawn with the same zxing library the web app decodes with.
 */
import { writeFileSync } from 'node:fs';
import zxing from '@zxing/library';
import { type Browser, chromium } from 'playwright-core';

const WIDTH = 640;
const HEIGHT = 480;
const CODE_SIZE = 400;

/** Writes a 640×480 Y4M (4:2:0) file with `text` as a black-on-white QR code, two frames long. */
export function qrCodeVideo(text: string, file: string) {
  const matrix = new zxing.QRCodeWriter().encode(
    text,
    zxing.BarcodeFormat.QR_CODE,
    CODE_SIZE,
    CODE_SIZE,
    new Map(),
  );
  const luma = Buffer.alloc(WIDTH * HEIGHT, 255);
  const left = (WIDTH - CODE_SIZE) / 2;
  const top = (HEIGHT - CODE_SIZE) / 2;
  for (let y = 0; y < CODE_SIZE; y++) {
    for (let x = 0; x < CODE_SIZE; x++) {
      if (matrix.get(x, y)) luma[(top + y) * WIDTH + left + x] = 0;
    }
  }
  // Grey chroma: 128 in both 4:2:0 planes.
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(file, Buffer.concat([header, frame, frame]));
}

/** Headless Chromium (as `launchBrowser`) whose camera shows `videoFile`. */
export function launchBrowserWithCamera(videoFile: string): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${videoFile}`,
    ],
  });
}
