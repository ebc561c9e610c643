import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { usageColumns, type DayUsage } from '../lib/usage-chart.js';

/** Questions, answers and controls by day (uPlot); the table beside it carries the same numbers for screen readers. */
/** `from`/`to`: the allowance window (ISO), the x axis's extent whatever days have data. */
export function UsageChart({ days, from, to }: { days: DayUsage[]; from: string; to: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = () => Math.max(280, el.clientWidth - 16);
    const plot = new uPlot(
      {
        width: width(),
        height: 240,
        series: [
          {},
          { label: 'Questions', stroke: '#1f5fbf', width: 2, points: { size: 7 } },
          { label: 'Answers', stroke: '#1b6e3a', width: 2, points: { size: 7 } },
          { label: 'Controls', stroke: '#8a5300', width: 2, points: { size: 7 } },
        ],
        axes: [{}, { label: 'per day' }],
        scales: {
          x: { time: true, range: () => [Date.parse(from) / 1000, Date.parse(to) / 1000] },
          y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] },
        },
      },
      usageColumns(days),
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 240 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, from, to]);
  return <div ref={box} className="chart" role="img" aria-label="Usage by day: questions, answers and controls" />;
}
