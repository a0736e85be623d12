/**
 * The unseen prefix on the Compare chart: every curve includes the tokens each call sends beside
 * the transcript (system prompt, tool definitions), so they are drawn as a band of their own, a
 * shaded area from 0 up to the prefix under the curves, labelled with what it is.
 */
import type uPlot from 'uplot';
import type { UnseenPrefix } from '../../core/replay/recorded-usage.ts';

/** The band's label: "18,094 not in the transcript: system prompt and tool definitions (recorded at call 2)". */
export function prefixBandLabel(prefix: UnseenPrefix): string {
  const where = prefix.source === 'recorded' ? `recorded at call ${(prefix.call ?? 0) + 1}` : prefix.preset ? `estimate: ${prefix.preset} preset` : 'estimate';
  return `${prefix.tokens.toLocaleString('en-US')} not in the transcript: system prompt and tool definitions (${where})`;
}

/** Draws the band under the series (a drawClear hook): nothing at 0. */
export function drawPrefixBand(u: uPlot, prefix: UnseenPrefix | undefined): void {
  if (!prefix || prefix.tokens <= 0) return;
  const { ctx } = u;
  const { left, top, width, height } = u.bbox;
  const y = Math.max(top, Math.min(top + height, u.valToPos(prefix.tokens, 'y', true)));
  const bottom = top + height;
  ctx.save();
  ctx.fillStyle = 'rgba(100, 116, 139, 0.18)';
  ctx.fillRect(left, y, width, bottom - y);
  ctx.strokeStyle = 'rgba(71, 85, 105, 0.7)';
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(left, y);
  ctx.lineTo(left + width, y);
  ctx.stroke();
  ctx.fillStyle = '#334155';
  ctx.font = `${Math.round(11 * devicePixelRatio)}px system-ui, sans-serif`;
  ctx.textBaseline = bottom - y > 16 * devicePixelRatio ? 'top' : 'bottom';
  ctx.fillText(prefixBandLabel(prefix), left + 6 * devicePixelRatio, ctx.textBaseline === 'top' ? y + 3 * devicePixelRatio : y - 3 * devicePixelRatio);
  ctx.restore();
}
