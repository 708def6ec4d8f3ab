// basic_face: compares faces offline in the worker (the selfie against the document's portrait),
// with the face models of @idv/faces. Advisory: a model's opinion for a reviewer or a policy, not a
// provider's identity check.
import { Type } from '@sinclair/typebox';
import { defineConnector, opt, strict } from '../connector.ts';

/** The score (100 x (1 - descriptor distance)) at or above which two faces match: the table of docs/connectors.md. */
export const BASIC_FACE_THRESHOLD = 50;

export const basic_face = defineConnector({
  type: 'basic_face',
  kinds: ['face_compare'],
  config: Type.Object(
    {
      threshold: opt(
        Type.Number({
          minimum: 30,
          maximum: 90,
          description: `score (0..100) at or above which the faces match; ${BASIC_FACE_THRESHOLD} when unset (chosen from the evaluation in docs/connectors.md: higher refuses more of the same person, lower accepts more of others)`,
        }),
      ),
    },
    { ...strict, description: 'works offline in the worker' },
  ),
  secrets: [],
  addresses: [],
  // face models are CPU work: one pair per core, a short backlog before another replica
  deployment: { compute: 'cpu', backlogPerReplica: 2 },
});
