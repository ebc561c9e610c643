/** uPlot's aligned columns for the usage-by-day chart: x in Unix seconds, then one series per count. */
export interface DayUsage {
  date: string;
  questions: number;
  answers: number;
  controls: number;
}

export type ChartColumns = [number[], number[], number[], number[]];

export function usageColumns(days: readonly DayUsage[]): ChartColumns {
  const sorted = [...days].sort((a, b) => a.date.localeCompare(b.date));
  return [
    sorted.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000),
    sorted.map((d) => d.questions),
    sorted.map((d) => d.answers),
    sorted.map((d) => d.controls),
  ];
}
