// Analytics with plain SVG charts: volume and pass rate per day, time to a result, failures.
import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';

interface Analytics {
  daily: {
    day: string;
    runs: number;
    completed: number;
    failed: number;
    passRate: number | null;
  }[];
  timeToResult: { kind: string; ended: number; medianSeconds: number | null; p95Seconds: number | null }[]; // prettier-ignore
  connectors: { runFailures: { reason: string; runs: number }[]; webhookAttempts: { event: string; attempts: number; errors: number; medianMs: number | null }[] }; // prettier-ignore
  review: { decided: number; medianSecondsToDecision: number | null } | null;
}

function Bars(props: { title: string; values: { label: string; value: number }[]; unit?: string }) {
  const max = Math.max(1, ...props.values.map((v) => v.value));
  const width = Math.max(300, props.values.length * 28);
  return (
    <figure>
      <svg
        role="img"
        aria-label={`${props.title}: ${props.values.map((v) => `${v.label} ${v.value}${props.unit ?? ''}`).join(', ')}`}
        viewBox={`0 0 ${width} 140`}
        className="chart"
      >
        {props.values.map((v, i) => {
          const h = (v.value / max) * 110;
          return (
            <rect key={v.label} x={i * 28 + 4} y={120 - h} width={20} height={h} className="bar" />
          );
        })}
        <line x1="0" y1="120" x2={width} y2="120" className="axis" />
      </svg>
      <figcaption>{props.title}</figcaption>
    </figure>
  );
}

export function AnalyticsPage() {
  const figures = useQuery({ queryKey: ['analytics'], queryFn: () => api<Analytics>('/analytics?days=30') }); // prettier-ignore
  const a = figures.data;
  if (!a) return <p>Loading…</p>;
  return (
    <section aria-labelledby="analytics-title">
      <h1 id="analytics-title">Analytics (30 days)</h1>
      <div className="charts">
        <Bars
          title="Verifications per day"
          values={a.daily.map((d) => ({ label: d.day, value: d.runs }))}
        />
        <Bars
          title="Pass rate per day (%)"
          unit="%"
          values={a.daily.map((d) => ({
            label: d.day,
            value: Math.round((d.passRate ?? 0) * 100),
          }))}
        />
      </div>
      <h2>Time to a result</h2>
      <ul>
        {a.timeToResult.map((t) => (
          <li key={t.kind}>
            {t.kind}: median {t.medianSeconds?.toFixed(1) ?? '—'} s, p95{' '}
            {t.p95Seconds?.toFixed(1) ?? '—'} s ({t.ended} ended)
          </li>
        ))}
      </ul>
      {a.review ? (
        <p>
          Review: {a.review.decided} decided, median{' '}
          {a.review.medianSecondsToDecision?.toFixed(0) ?? '—'} s to a decision.
        </p>
      ) : null}
      <h2>Failures and webhook attempts</h2>
      <ul>
        {a.connectors.runFailures.map((f) => (
          <li key={f.reason}>
            {f.reason}: {f.runs} runs failed
          </li>
        ))}
      </ul>
      <ul>
        {a.connectors.webhookAttempts.map((w) => (
          <li key={w.event}>
            {w.event}: {w.attempts} attempts, {w.errors} errors, median {w.medianMs ?? '—'} ms
          </li>
        ))}
      </ul>
    </section>
  );
}
