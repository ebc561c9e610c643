declare module 'parse-prometheus-text-format' {
  /** Parses the Prometheus text exposition format into metric families (the package ships no types). */
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
