/** Numbers as the plan's notes show them ("912,331"), independent of the runtime's locale data. */

export function fmt(n: number): string {
  const rounded = Math.round(n);
  const sign = rounded < 0 ? '-' : '';
  return sign + String(Math.abs(rounded)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
