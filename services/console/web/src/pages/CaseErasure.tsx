// Erasure of the person's data behind a case, for admins (the server asks for a recent login).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api.ts';
import type { ReviewCase } from './CasePage.tsx';

/** A session's run is erased with its session (images, runs, resubmissions); an async run alone. */
const erasureSubject = (c: ReviewCase) =>
  c.sessionId ? { sessionId: c.sessionId } : { verificationId: c.verificationId };

export function CaseErasure(props: {
  community: string;
  review: ReviewCase;
  onErased: () => Promise<unknown>;
}) {
  const client = useQueryClient();
  const erase = useMutation({
    mutationFn: () =>
      api<{ tombstone: unknown }>(`/erasure/community/${props.community}`, {
        method: 'POST',
        body: erasureSubject(props.review),
      }),
    // the person's data is gone: nothing of it stays cached on the page
    onSuccess: () => {
      client.removeQueries({ queryKey: ['case-data', props.review.caseId] });
      return props.onErased();
    },
  });
  return (
    <section aria-labelledby="erase-title" className="danger">
      <h2 id="erase-title">Erase this person's data</h2>
      <p>
        Images, request and result data are deleted; a tombstone of hashes and ids remains. You may
        be asked to log in again.
      </p>
      <button
        type="button"
        className="danger"
        onClick={() => {
          if (confirm("Erase this verification's personal data? This cannot be undone."))
            erase.mutate();
        }}
      >
        Erase
      </button>
      {erase.data ? <p role="status">Erased.</p> : null}
      {erase.error ? (
        <p role="alert" className="error">
          {erase.error.message}
        </p>
      ) : null}
    </section>
  );
}
