// Nested shapes of the document auth configs (spec 2.3): the scan channel's configuration and
// result fields, and the per-document token flows.
import { Type } from '@sinclair/typebox';

const str = () => Type.String();
const opt = Type.Optional;
const strict = { additionalProperties: false } as const;

export const ChannelConfiguration = Type.Object(
  {
    enableSelfieCapture: opt(Type.Boolean()),
    enableFarSelfie: opt(Type.Boolean()),
    requestExpiryTimeInMin: opt(Type.Number()),
    reviewScreenFront: opt(Type.Boolean()),
    reviewScreenBack: opt(Type.Boolean()),
    frontCaptureMode: opt(str()),
    backCaptureMode: opt(str()),
    transactionExpiryTimeInMin: opt(Type.Number()),
    frontCaptureAttempt: opt(Type.Number()),
    backCaptureAttempt: opt(Type.Number()),
    selfieCaptureAttempt: opt(Type.Number()),
    transactionAttempts: opt(Type.Number()),
    frontSetManualTimeout: opt(Type.Number()),
    backSetManualTimeout: opt(Type.Number()),
  },
  strict,
);

export const CHANNEL_RESPONSE_FIELDS = [
  'DQL_Classification_DocumentClassName',
  'DQL_Classification_DocumentIssuerCode',
  'DQL_Classification_DocumentIssuerCountry',
  'DQL_Classification_DocumentIssuerCountryCode',
  'DQL_Classification_DocumentName',
  'DQL_Classification_DocumentSeries',
  'DQL_Classification_IssuerName',
  'DQL_Classification_Type',
  'DQL_Final_Address_Result',
  'DQL_Final_BirthDate_Result',
  'DQL_Final_DocumentNumber_Result',
  'DQL_Final_ExpirationDate_Result',
  'DQL_Final_IssueDate_Result',
  'DQL_ExpiredID_Result',
  'DQL_Final_AddressCity_Result',
  'DQL_Final_AddressLine1_Result',
  'DQL_Final_AddressState_Result',
  'DQL_Final_FirstName_Result',
  'DQL_Final_GivenName_Result',
  'DQL_Final_MiddleName_Result',
  'DQL_Final_Sex_Result',
  'DQL_Final_Surname_Result',
  'ImageFront',
  'ImageBack',
  'ImageSelfie',
  'ImageLiveness',
] as const;

export const TokenFlow = Type.Object(
  {
    flowId: str(),
    documentType: str(),
    seldocTypeFilter: Type.Array(Type.String()),
    confirm: Type.Boolean(),
    scores: Type.Boolean(),
  },
  strict,
);
