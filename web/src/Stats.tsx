import { useEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import { useQuery } from 'urql';
import { PUBLISHING_STATS, type Comparison, type PublishingStats } from './documents.ts';
import { ErrorNote, number } from './ui.tsx';

const METRICS = ['views', 'engagement', 'followers'] as const;
const WINDOWS = [7, 30, 90, 365];
const COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2'];

/** What the posts gained over a window, against the window before, and the chosen metric per day as a chart. */
export function Stats() {
  const [metric, setMetric] = useState<(typeof METRICS)[number]>('views');
  const [days, setDays] = useState(30);
  // the window ends now; fixed per choice so that the query's variables stay put between renders
  const from = useMemo(() => new Date(Date.now() - days * 86_400_000).toISOString(), [days]);
  const [{ data, fetching, error }] = useQuery<{ publishingStats: PublishingStats }>({
    query: PUBLISHING_STATS,
    variables: { metric, from },
    requestPolicy: 'cache-and-network',
  });
  const stats = data?.publishingStats;
  return (
    <section>
      <h2>Statistics</h2>
      <div className="grid">
        <label>
          Metric
          <select value={metric} onChange={(e) => setMetric(e.target.value as (typeof METRICS)[number])}>
            {METRICS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          Window
          <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {WINDOWS.map((d) => (
              <option key={d} value={d}>
                last {d} days
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNote error={error} />
      {stats && (
        <>
          <div className="grid figures">
            <Figure label="Views" value={stats.summary.views} />
            <Figure label="Engagement" value={stats.summary.engagement} />
            <Figure label="Followers" value={stats.summary.followers} />
          </div>
          <article aria-busy={fetching}>
            <Chart stats={stats} />
          </article>
        </>
      )}
    </section>
  );
}

function Figure({ label, value }: { label: string; value: Comparison }) {
  const change = value.prior ? ((value.current - value.prior) / value.prior) * 100 : null;
  return (
    <article className="figure">
      <small>{label}</small>
      <strong>{number(value.current)}</strong>
      <small>{change == null ? `prior window ${number(value.prior)}` : `${change >= 0 ? '+' : ''}${change.toFixed(0)}% on the prior window`}</small>
    </article>
  );
}

/** The daily total and each platform's share, drawn by uPlot on a canvas. */
function Chart({ stats }: { stats: PublishingStats }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const days = stats.timeseries;
    const platforms = [...new Set(days.flatMap((d) => d.breakdown.map((b) => b.platform)))];
    const x = days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    const series: uPlot.Series[] = [
      {},
      { label: `${stats.metric} (total)`, stroke: '#222', width: 2 },
      ...platforms.map((p, i) => ({ label: p, stroke: COLOURS[i % COLOURS.length], width: 1 })),
    ];
    const data: uPlot.AlignedData = [
      x,
      days.map((d) => d.total),
      ...platforms.map((p) => days.map((d) => d.breakdown.find((b) => b.platform === p)?.value ?? 0)),
    ];
    const plot = new uPlot({ width: el.clientWidth || 800, height: 320, series, scales: { x: { time: true } } }, data, el);
    const resize = () => plot.setSize({ width: el.clientWidth, height: 320 });
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [stats]);
  return <div ref={box} className="chart" data-testid="stats-chart" />;
}
