// Analytics with plain SVG charts: volume and pass rate per day, time to a result, per-connector
// latency and errors, failures.
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
  timeToResult: {
    kind: string;
    ended: number;
    medianSeconds: number | null;
    p95Seconds: number | null;
  }[];
  connectors: {
    calls: ConnectorCalls[];
    runFailures: { reason: string; runs: number }[];
    webhookAttempts: { event: string; attempts: number; errors: number; medianMs: number | null }[];
  };
  review: { decided: number; medianSecondsToDecision: number | null } | null;
}

/** One verifier's calls over the window (the gateway's minutes summed; p50/p95 estimated). */
interface ConnectorCalls {
  communityId: string;
  community: string;
  verifier: string;
  connectorType: string;
  kinds: string[];
  calls: number;
  errors: number;
  timeouts: number;
  refusals: number;
  busy: number;
  errorRate: number | null;
  averageMs: number | null;
  maxMs: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
}

const ms = (v: number | null) =>
  v === null ? '—' : v < 10_000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`;
const percent = (v: number | null) =>
  v === null ? '—' : `${(v * 100).toFixed(v && v < 0.1 ? 1 : 0)} %`;

const seconds = (s: number | null | undefined) =>
  s === null || s === undefined ? '—' : s < 90 ? `${s.toFixed(1)} s` : `${(s / 60).toFixed(1)} min`;

/** The last `days` days (YYYY-MM-DD, UTC as the server groups them), oldest first. */
const window = (days: number) =>
  Array.from({ length: days }, (_, i) =>
    new Date(Date.now() - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );

const WIDTH = 600;
const LEFT = 48;

/** A slot per day of the window (days without a value stay empty), the highest value and the first and last day on the axes. */
function Bars(props: {
  title: string;
  values: { label: string; value: number }[];
  unit?: string;
  empty: string;
  days: number;
}) {
  if (props.values.length === 0)
    return (
      <figure>
        <p className="empty">{props.empty}</p>
        <figcaption>{props.title}</figcaption>
      </figure>
    );
  const max = Math.max(1, ...props.values.map((v) => v.value));
  const days = window(props.days);
  const slot = (WIDTH - LEFT) / days.length;
  const unit = props.unit ?? '';
  return (
    <figure>
      <svg
        role="img"
        aria-label={`${props.title}: ${props.values.map((v) => `${v.label} ${v.value}${unit}`).join(', ')}`}
        viewBox={`0 0 ${WIDTH} 190`}
        className="chart"
      >
        <text x="6" y="24">
          {max}
          {unit}
        </text>
        {props.values.map((v) => {
          const at = days.indexOf(v.label);
          const h = (v.value / max) * 130;
          return at < 0 ? null : (
            <rect
              key={v.label}
              x={LEFT + at * slot + 2}
              y={150 - h}
              width={slot - 4}
              height={h}
              className="bar"
            />
          );
        })}
        <line x1={LEFT - 4} y1="150" x2={WIDTH} y2="150" className="axis" />
        <text x={LEFT} y="176">
          {days[0]}
        </text>
        <text x={WIDTH - 4} y="176" textAnchor="end">
          {days.at(-1)}
        </text>
      </svg>
      <figcaption>{props.title}</figcaption>
    </figure>
  );
}

const LABEL = 200;
const ROW = 30;

/** One bar per connector (its label at the left, its figure at the right); `inner` drawn inside `value`, darker. */
function Rows(props: {
  title: string;
  rows: { label: string; value: number; inner?: number; text: string }[];
}) {
  const max = Math.max(1, ...props.rows.map((r) => r.value));
  const room = WIDTH - LABEL - 136;
  const height = props.rows.length * ROW + 16;
  const clip = (label: string) => (label.length > 24 ? `${label.slice(0, 23)}…` : label);
  return (
    <figure>
      <svg
        role="img"
        aria-label={`${props.title}: ${props.rows.map((r) => `${r.label} ${r.text}`).join(', ')}`}
        viewBox={`0 0 ${WIDTH} ${height}`}
        className="chart"
      >
        {props.rows.map((r, i) => {
          const y = 8 + i * ROW;
          return (
            <g key={r.label}>
              <text x="6" y={y + 18}>
                {clip(r.label)}
              </text>
              <rect
                x={LABEL}
                y={y + 4}
                width={Math.max(1, (r.value / max) * room)}
                height={ROW - 10}
                className="bar"
                opacity={r.inner === undefined ? 1 : 0.4}
              />
              {r.inner === undefined ? null : (
                <rect
                  x={LABEL}
                  y={y + 4}
                  width={Math.max(1, (r.inner / max) * room)}
                  height={ROW - 10}
                  className="bar"
                />
              )}
              <text x={WIDTH - 6} y={y + 18} textAnchor="end">
                {r.text}
              </text>
            </g>
          );
        })}
        <line x1={LABEL} y1="4" x2={LABEL} y2={height - 4} className="axis" />
      </svg>
      <figcaption>{props.title}</figcaption>
    </figure>
  );
}

/** Latency and errors per verifier: two charts (the busiest ten) and the table of them all. */
function ConnectorSection({ calls }: { calls: ConnectorCalls[] }) {
  if (calls.length === 0) return <p className="empty">No connector call in these 30 days.</p>;
  const several = new Set(calls.map((c) => c.communityId)).size > 1;
  const name = (c: ConnectorCalls) => (several ? `${c.verifier} · ${c.community}` : c.verifier);
  const busiest = calls.slice(0, 10);
  return (
    <>
      <div className="charts">
        <Rows
          title="Connector latency: median (dark) and 95th percentile, estimated"
          rows={busiest.map((c) => ({
            label: name(c),
            value: c.p95Ms ?? 0,
            inner: c.p50Ms ?? 0,
            text: `${ms(c.p50Ms)} / ${ms(c.p95Ms)}`,
          }))}
        />
        <Rows
          title="Connector errors and timeouts (% of calls)"
          rows={busiest.map((c) => ({
            label: name(c),
            value: (c.errorRate ?? 0) * 100,
            text: percent(c.errorRate),
          }))}
        />
      </div>
      <div className="table-wrap">
        <table className="stack">
          <caption>
            Connector calls by verifier (latency from the gateway, percentiles estimated)
          </caption>
          <thead>
            <tr>
              <th scope="col">Verifier</th>
              <th scope="col">Calls</th>
              <th scope="col">Error rate</th>
              <th scope="col">Median</th>
              <th scope="col">95th percentile</th>
              <th scope="col">Average</th>
              <th scope="col">Max</th>
            </tr>
          </thead>
          <tbody>
            {calls.map((c) => (
              <tr key={`${c.communityId} ${c.verifier} ${c.connectorType}`}>
                <td data-label="Verifier">
                  {c.verifier}
                  <br />
                  <small>
                    {c.connectorType}
                    {several ? ` · ${c.community}` : ''}
                  </small>
                </td>
                <td data-label="Calls">{c.calls}</td>
                <td data-label="Error rate">
                  {percent(c.errorRate)}
                  <br />
                  <small>{`${c.errors} errors, ${c.timeouts} timeouts${c.refusals ? `, ${c.refusals} refused` : ''}${c.busy ? `, ${c.busy} busy` : ''}`}</small>
                </td>
                <td data-label="Median">{ms(c.p50Ms)}</td>
                <td data-label="95th percentile">{ms(c.p95Ms)}</td>
                <td data-label="Average">{ms(c.averageMs)}</td>
                <td data-label="Max">{ms(c.maxMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function AnalyticsPage() {
  const figures = useQuery({
    queryKey: ['analytics'],
    queryFn: () => api<Analytics>('/analytics?days=30'),
  });
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
          days={30}
          empty="No verification in these 30 days."
          values={a.daily.map((d) => ({ label: d.day, value: d.runs }))}
        />
        <Bars
          title="Pass rate per day (%), of the runs that ended"
          days={30}
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
        <table className="stack">
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
                <td data-label="Kind">{t.kind}</td>
                <td data-label="Ended">{t.ended}</td>
                <td data-label="Median">{seconds(t.medianSeconds)}</td>
                <td data-label="95th percentile">{seconds(t.p95Seconds)}</td>
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
      <h2>Connector calls</h2>
      <ConnectorSection calls={a.connectors.calls} />
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
        <table className="stack">
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
                <td data-label="Event">{w.event}</td>
                <td data-label="Attempts">{w.attempts}</td>
                <td data-label="Errors">{w.errors}</td>
                <td data-label="Median latency">
                  {w.medianMs === null ? '—' : `${Math.round(w.medianMs)} ms`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
