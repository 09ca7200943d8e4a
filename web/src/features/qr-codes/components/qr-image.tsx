import { useEffect, useState } from 'react';
import { labelledQrSvg } from '../qr-image.ts';

/**
 * The labelled QR code of `url` as an inline image. The SVG comes from the `qrcode` library and
 * escapes the name and URL, so it is rendered as an <img> data URL rather than injected markup.
 */
export function QrImage({
  url,
  name,
  className,
  testid,
}: {
  url: string;
  name: string;
  className?: string;
  testid?: string;
}) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void labelledQrSvg(url, name).then((svg) => {
      if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      live = false;
    };
  }, [url, name]);
  return src ? (
    <img src={src} alt={name} className={className} data-testid={testid} />
  ) : (
    <div className={`animate-pulse bg-stone-100 ${className ?? ''}`} aria-hidden="true" />
  );
}
