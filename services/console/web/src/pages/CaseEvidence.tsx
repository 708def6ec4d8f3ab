// A case's personal data for a reviewer (each read audited by the gateway): the document's sides
// beside the selfie, and the data the document checks extracted beside what the caller gave.
import type { ReactNode } from 'react';

export interface CaseData {
  given: Record<string, string>;
  extracted: { kind: string; verifier: string; fields: Record<string, string> }[];
  images: { name: string; mediaType: string; bytes: number }[];
}

function Fields(props: { caption: ReactNode; fields: Record<string, string>; empty: string }) {
  const entries = Object.entries(props.fields);
  return (
    <table>
      <caption>{props.caption}</caption>
      <tbody>
        {entries.length === 0 ? (
          <tr>
            <td className="hint">{props.empty}</td>
          </tr>
        ) : null}
        {entries.map(([k, v]) => (
          <tr key={k}>
            <th scope="row">{k}</th>
            <td>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function CaseEvidence({ base, data }: { base: string; data: CaseData }) {
  return (
    <section aria-labelledby="images-title">
      <h2 id="images-title">Document and selfie</h2>
      <div className="images">
        {data.images.map((image) => {
          const src = `/api${base}/images/${encodeURIComponent(image.name)}`;
          return (
            <figure key={image.name} className={image.name === 'selfie' ? 'selfie' : undefined}>
              <a href={src} target="_blank" rel="noopener">
                <img src={src} alt={`${image.name} image (opens full size)`} />
              </a>
              <figcaption>{image.name}</figcaption>
            </figure>
          );
        })}
      </div>
      <h2>Extracted data beside what the caller gave</h2>
      <div className="compare">
        <Fields
          caption="Given by the caller"
          fields={data.given}
          empty="The caller gave no data for this verification."
        />
        {data.extracted.map((e) => (
          <Fields
            key={`${e.kind}-${e.verifier}`}
            caption={`Extracted by ${e.verifier} (${e.kind})`}
            fields={e.fields}
            empty="This check extracted nothing."
          />
        ))}
      </div>
    </section>
  );
}
