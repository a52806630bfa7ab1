/**
 * The colour looks a preset's colour filter names: each an ffmpeg filter chain
 * of the look at `intensity` (0-100; 0 leaves the picture as it is), cheap
 * per-pixel filters (see colorFilterChain for what each costs).
 */
export const COLOR_FILTERS = ['warm', 'cool', 'vintage', 'mono', 'high-contrast', 'fade', 'teal-orange', 'vivid'] as const;
export type ColorFilterName = (typeof COLOR_FILTERS)[number];

const n = (x: number) => String(Math.round(x * 10000) / 10000);

/**
 * The filter chain of a look at `intensity` percent. Tints, lifts and fades
 * are lookup tables on the Y, U and V planes (`lutyuv`) and saturation and
 * contrast are `eq` and `hue`, all on the frame as it is decoded (no RGB
 * conversion: colorbalance on RGB cost 3.4 times a bare 1080x1920 encode);
 * only teal-orange, whose tint depends on the brightness, works in RGB
 * (colorbalance) and costs that.
 */
export function colorFilterChain(name: ColorFilterName, intensity: number): string {
  const t = Math.min(100, Math.max(0, intensity)) / 100;
  switch (name) {
    case 'warm':
      // less blue (U down), more red (V up)
      return `lutyuv=u=val-${n(12 * t)}:v=val+${n(14 * t)}`;
    case 'cool':
      return `lutyuv=u=val+${n(14 * t)}:v=val-${n(10 * t)}`;
    case 'vintage':
      // faded colour, lifted blacks, a yellow-brown tint
      return `eq=saturation=${n(1 - 0.45 * t)}:contrast=${n(1 - 0.1 * t)},lutyuv=y=val*${n(1 - 0.1 * t)}+${n(18 * t)}:u=val-${n(10 * t)}:v=val+${n(8 * t)}`;
    case 'mono':
      return `hue=s=${n(1 - t)}`;
    case 'high-contrast':
      return `eq=contrast=${n(1 + 0.45 * t)}:saturation=${n(1 + 0.1 * t)}`;
    case 'fade':
      return `lutyuv=y=val*${n(1 - 0.15 * t)}+${n(30 * t)},eq=saturation=${n(1 - 0.35 * t)}`;
    case 'teal-orange':
      return `colorbalance=rs=${n(-0.14 * t)}:gs=${n(0.02 * t)}:bs=${n(0.16 * t)}:rh=${n(0.16 * t)}:gh=${n(0.02 * t)}:bh=${n(-0.16 * t)}`;
    case 'vivid':
      return `eq=saturation=${n(1 + 0.7 * t)}:contrast=${n(1 + 0.08 * t)}`;
  }
}

/** Where a logo sits. */
export const LOGO_POSITIONS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type LogoPosition = (typeof LOGO_POSITIONS)[number];
