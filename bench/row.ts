/**
 * One measurement a bench section returns. It lives apart from run.ts, which imports every
 * section (through sections.ts), so that a section naming it imports nothing that imports it back.
 */
export interface Row {
  section: string;
  metric: string;
  value: number;
  unit: string;
  note?: string;
}
