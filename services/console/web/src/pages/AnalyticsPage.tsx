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

const seconds = (s: number | null | undefined) =>
  s === null || s === undefined ? '—' : s < 90 ? `${s.toFixed(1)} s` : `${(s / 60).toFixed(1)} min`;

/** A bar per day, the highest value and the first and last day written on the axes. */
function Bars(props: {
  title: string;
  values: { label: string; value: number }[];
  unit?: string;
  empty: string;
}) {
  if (props.values.length === 0)
    return (
      <figure>
        <p className="empty">{props.empty}</p>
        <figcaption>{props.title}</figcaption>
      </figure>
    );
  const max = Math.max(1, ...props.values.map((v) => v.value));
  const width = Math.max(300, props.values.length * 28 + 40);
  const unit = props.unit ?? '';
  return (
    <figure>
      <svg
        role="img"
        aria-label={`${props.title}: ${props.values.map((v) => `${v.label} ${v.value}${unit}`).join(', ')}`}
        viewBox={`0 0 ${width} 150`}
        className="chart"
      >
        <text x="4" y="14">
          {max}
          {unit}
        </text>
        {props.values.map((v, i) => {
          const h = (v.value / max) * 100;
          return (
            <rect key={v.label} x={i * 28 + 40} y={120 - h} width={20} height={h} className="bar" />
          );
        })}
        <line x1="36" y1="120" x2={width} y2="120" className="axis" />
        <text x="40" y="138">
          {props.values[0]!.label}
        </text>
        {props.values.length > 1 ? (
          <text x={width - 4} y="138" textAnchor="end">
            {props.values.at(-1)!.label}
          </text>
        ) : null}
      </svg>
      <figcaption>{props.title}</figcaption>
    </figure>
  );
}

export function AnalyticsPage() {
  const figures = useQuery({ queryKey: ['analytics'], queryFn: () => api<Analytics>('/analytics?days=30') }); // prettier-ignore
  const a = figures.data;
  if (figures.error)
    return (
      <p role="alert" className="error">
        {figures.error.message}
      </p>
    );
  if (!a) return <p>Loading…</p>;
  const { runFailures, webhookAttempts } = a.connectors;
  return (
    <section aria-labelledby="analytics-title">
      <h1 id="analytics-title">Analytics (30 days)</h1>
      <div className="charts">
        <Bars
          title="Verifications per day"
          empty="No verification in these 30 days."
          values={a.daily.map((d) => ({ label: d.day, value: d.runs }))}
        />
        <Bars
          title="Pass rate per day (%), of the runs that ended"
          empty="No run ended in these 30 days."
          unit="%"
          values={a.daily
            .filter((d) => d.passRate !== null)
            .map((d) => ({ label: d.day, value: Math.round(d.passRate! * 100) }))}
        />
      </div>
      <h2>Time to a result</h2>
      {a.timeToResult.length === 0 ? (
        <p className="empty">No verification ended in these 30 days.</p>
      ) : (
        <table>
          <caption className="visually-hidden">Time from the request to a result, per kind</caption>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Ended</th>
              <th scope="col">Median</th>
              <th scope="col">95th percentile</th>
            </tr>
          </thead>
          <tbody>
            {a.timeToResult.map((t) => (
              <tr key={t.kind}>
                <td>{t.kind}</td>
                <td>{t.ended}</td>
                <td>{seconds(t.medianSeconds)}</td>
                <td>{seconds(t.p95Seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {a.review ? (
        <p>
          {a.review.decided === 0
            ? 'Human review: no case decided in these 30 days.'
            : `Human review: ${a.review.decided} decided, median ${seconds(a.review.medianSecondsToDecision)} from opening to decision.`}
        </p>
      ) : null}
      <h2>Failures and webhook attempts</h2>
      {runFailures.length === 0 && webhookAttempts.length === 0 ? (
        <p className="empty">No failed run and no webhook attempt in these 30 days.</p>
      ) : null}
      {runFailures.length ? (
        <table>
          <caption>Failed runs by reason</caption>
          <thead>
            <tr>
              <th scope="col">Reason</th>
              <th scope="col">Runs</th>
            </tr>
          </thead>
          <tbody>
            {runFailures.map((f) => (
              <tr key={f.reason}>
                <td>{f.reason}</td>
                <td>{f.runs}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {webhookAttempts.length ? (
        <table>
          <caption>Webhook attempts by event</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Attempts</th>
              <th scope="col">Errors</th>
              <th scope="col">Median latency</th>
            </tr>
          </thead>
          <tbody>
            {webhookAttempts.map((w) => (
              <tr key={w.event}>
                <td>{w.event}</td>
                <td>{w.attempts}</td>
                <td>{w.errors}</td>
                <td>{w.medianMs === null ? '—' : `${Math.round(w.medianMs)} ms`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
