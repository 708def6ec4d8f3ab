// The decrypted `requestid` header of DESIGN 2.2.
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
  },
  { $id: 'http/requestId', additionalProperties: true },
);
export type RequestId = Static<typeof RequestId>;
