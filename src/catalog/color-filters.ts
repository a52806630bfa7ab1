/**
 * The colour looks a preset's colour filter names: each an ffmpeg filter chain
 * of the look at `intensity` (0-100; 0 leaves the picture as it is), cheap
 * per-pixel filters only, so a look costs little beside the encode.
 */
export const COLOR_FILTERS = ['warm', 'cool', 'vintage', 'mono', 'high-contrast', 'fade', 'teal-orange', 'vivid'] as const;
export type ColorFilterName = (typeof COLOR_FILTERS)[number];

const n = (x: number) => String(Math.round(x * 10000) / 10000);

/** The filter chain of a look at `intensity` percent. */
export function colorFilterChain(name: ColorFilterName, intensity: number): string {
  const t = Math.min(100, Math.max(0, intensity)) / 100;
  switch (name) {
    case 'warm':
      return `colorbalance=rs=${n(0.12 * t)}:bs=${n(-0.12 * t)}:rm=${n(0.1 * t)}:bm=${n(-0.1 * t)}:rh=${n(0.06 * t)}:bh=${n(-0.06 * t)}`;
    case 'cool':
      return `colorbalance=rs=${n(-0.12 * t)}:bs=${n(0.12 * t)}:rm=${n(-0.1 * t)}:bm=${n(0.1 * t)}:rh=${n(-0.06 * t)}:bh=${n(0.06 * t)}`;
    case 'vintage': {
      // towards sepia, with lifted blacks
      const m = (identity: number, sepia: number) => n(identity * (1 - t) + sepia * t);
      return `colorchannelmixer=rr=${m(1, 0.393)}:rg=${m(0, 0.769)}:rb=${m(0, 0.189)}:gr=${m(0, 0.349)}:gg=${m(1, 0.686)}:gb=${m(0, 0.168)}:br=${m(0, 0.272)}:bg=${m(0, 0.534)}:bb=${m(1, 0.131)},curves=all='0/${n(0.08 * t)} 1/${n(1 - 0.06 * t)}'`;
    }
    case 'mono':
      return `hue=s=${n(1 - t)}`;
    case 'high-contrast':
      return `eq=contrast=${n(1 + 0.45 * t)}:saturation=${n(1 + 0.1 * t)}`;
    case 'fade':
      return `curves=all='0/${n(0.16 * t)} 1/${n(1 - 0.08 * t)}',eq=saturation=${n(1 - 0.35 * t)}`;
    case 'teal-orange':
      return `colorbalance=rs=${n(-0.14 * t)}:gs=${n(0.02 * t)}:bs=${n(0.16 * t)}:rh=${n(0.16 * t)}:gh=${n(0.02 * t)}:bh=${n(-0.16 * t)}`;
    case 'vivid':
      return `eq=saturation=${n(1 + 0.7 * t)}:contrast=${n(1 + 0.08 * t)}`;
  }
}

/** Where a logo sits. */
export const LOGO_POSITIONS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type LogoPosition = (typeof LOGO_POSITIONS)[number];
