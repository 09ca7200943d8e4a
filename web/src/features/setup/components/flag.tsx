/**
 * Flags for the language choice of setup step 1 (spec §2): German shows the German flag,
 * English the US flag. Drawn inline so they need no image files.
 */
import type { Language } from '@heizplan/contracts/account';

function GermanFlag() {
  return (
    <svg viewBox="0 0 5 3" className="h-full w-full" aria-hidden="true" data-testid="flag-de">
      <rect width="5" height="1" y="0" fill="#000" />
      <rect width="5" height="1" y="1" fill="#dd0000" />
      <rect width="5" height="1" y="2" fill="#ffce00" />
    </svg>
  );
}

const stripes = Array.from({ length: 13 }, (_, i) => i);
/** 50 stars: 9 rows alternating 6 and 5 in the canton (7.6 × 5.38 units). */
const CANTON_W = 7.6;
const CANTON_H = (10 * 7) / 13;
const stars = Array.from({ length: 9 }, (_, row) =>
  Array.from({ length: row % 2 === 0 ? 6 : 5 }, (_, col) => ({
    x: ((row % 2 === 0 ? 1 : 2) + col * 2) * (CANTON_W / 12),
    y: (row + 1) * (CANTON_H / 10),
  })),
).flat();

function UsFlag() {
  return (
    <svg viewBox="0 0 19 10" className="h-full w-full" aria-hidden="true" data-testid="flag-us">
      {stripes.map((i) => (
        <rect key={i} y={(i * 10) / 13} width="19" height={10 / 13} fill={i % 2 === 0 ? '#b22234' : '#fff'} />
      ))}
      <rect width={CANTON_W} height={CANTON_H} fill="#3c3b6e" />
      {stars.map(({ x, y }) => (
        <circle key={`${x}-${y}`} cx={x} cy={y} r="0.19" fill="#fff" />
      ))}
    </svg>
  );
}

export function Flag({ locale }: { locale: Language }) {
  return (
    <span className="block h-9 w-14 overflow-hidden rounded-sm shadow ring-1 ring-stone-300">
      {locale === 'de' ? <GermanFlag /> : <UsFlag />}
    </span>
  );
}
