// Every check of the verification under review: its provider, result and score.
import { breakable } from '../DataTable.tsx';

export interface CaseCheck {
  kind: string;
  verifier: string;
  provider: string;
  status: string;
  score?: number;
}

export function CaseChecks({ checks }: { checks: CaseCheck[] }) {
  return (
    <section aria-labelledby="checks-title">
      <h2 id="checks-title">Checks</h2>
      <table className="stack">
        <caption className="visually-hidden">Every check of the verification</caption>
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col">Verifier</th>
            <th scope="col">Provider</th>
            <th scope="col">Result</th>
            <th scope="col">Score</th>
          </tr>
        </thead>
        <tbody>
          {checks.map((check) => (
            <tr key={`${check.kind}-${check.verifier}`}>
              <td data-label="Kind">{breakable(check.kind)}</td>
              <td data-label="Verifier">{breakable(check.verifier)}</td>
              <td data-label="Provider">{breakable(check.provider)}</td>
              <td data-label="Result">{check.status}</td>
              <td data-label="Score">{check.score ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
