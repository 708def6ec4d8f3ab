// The decrypted `requestid` header of DESIGN 2.2, plus the optional binding members htm and htu.
import { Type, type Static } from '@sinclair/typebox';

export const RequestId = Type.Object(
  {
    appid: Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x20-\\x7e]+$' }),
    uuid: Type.String({
      pattern: '^[\\x21-\\x7e]+$',
      minLength: 8,
      maxLength: 128,
      description: 'unique per request; a second use in the window is a replay',
    }),
    ts: Type.Number({ description: 'epoch seconds' }),
    deviceId: Type.Optional(Type.String({ maxLength: 200 })),
    did: Type.Optional(Type.String({ maxLength: 500 })),
    htm: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 16,
        description: 'the HTTP method this requestid is for; when present it must match',
      }),
    ),
    htu: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description:
          'the URL or path this requestid is for (query ignored); when present its path must match',
      }),
    ),
  },
  { $id: 'http/requestId', additionalProperties: true },
);
export type RequestId = Static<typeof RequestId>;
