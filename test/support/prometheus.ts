import parsePrometheusTextFormat from 'parse-prometheus-text-format';

/** One family as parse-prometheus-text-format reads it from the text exposition format. */
export interface MetricFamily {
  name: string;
  help: string;
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
  metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string> }[];
}

export interface ParsedMetrics {
  /** Every family with its declared type, as the parser reads the answer. */
  families: Map<string, MetricFamily>;
  /**
   * Every sample series by its own name (`x_bucket`, `x_sum`, `x_count` apart), with its labels. The
   * parser folds the series of a histogram into one when they carry labels besides `le`, so the answer is
   * parsed a second time with the histograms' TYPE lines left out: each sample line is then a family of
   * its own name, parsed (and checked) by the same parser.
   */
  samples: Map<string, MetricFamily>;
}

/** Families by name; a name met again (a histogram's series alternate `_bucket`, `_sum`, `_count` per label set) adds its samples. */
function parse(text: string): Map<string, MetricFamily> {
  const byName = new Map<string, MetricFamily>();
  for (const family of parsePrometheusTextFormat(text) as MetricFamily[]) {
    const seen = byName.get(family.name);
    if (seen) seen.metrics.push(...family.metrics);
    else byName.set(family.name, { ...family, metrics: [...family.metrics] });
  }
  return byName;
}

/** Parses a /metrics answer with a real Prometheus text-format parser (which throws on a malformed line). */
export function parseMetrics(text: string): ParsedMetrics {
  const families = parse(text);
  const histograms = [...families.values()].filter((f) => f.type === 'HISTOGRAM' || f.type === 'SUMMARY').map((f) => f.name);
  const untyped = text
    .split('\n')
    .filter((line) => !histograms.some((name) => line.startsWith(`# TYPE ${name} `) || line.startsWith(`# HELP ${name} `)))
    .join('\n');
  return { families, samples: parse(untyped) };
}

const matches = (labels: Record<string, string> | undefined, want: Record<string, string>) =>
  Object.entries(want).every(([k, v]) => labels?.[k] === v);

/** The sum of the values of a series (`name` as written on the sample lines) over the label sets that include `want`. */
export function valueOf(parsed: ParsedMetrics, name: string, want: Record<string, string> = {}): number {
  const family = parsed.samples.get(name);
  if (!family) return 0;
  return family.metrics.filter((m) => matches(m.labels, want)).reduce((total, m) => total + Number(m.value), 0);
}

/** Every label set of a series. */
export const labelsOf = (parsed: ParsedMetrics, name: string): Record<string, string>[] =>
  (parsed.samples.get(name)?.metrics ?? []).map((m) => m.labels ?? {});
