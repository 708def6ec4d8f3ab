// The `config` of a verifier per connector type (spec 2.3), and which members are secrets that
// are sealed at rest. Unknown members are refused so a typo does not pass silently.
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { ConnectorType } from './types.ts';

const str = (description?: string) => Type.String(description ? { description } : {});
const opt = <S extends TSchema>(schema: S) => Type.Optional(schema);
const uri = (description: string) => Type.String({ format: 'uri', description });
const strict = { additionalProperties: false } as const;

const Calibration = Type.Union([
  Type.Literal('SOFT'),
  Type.Literal('REGULAR'),
  Type.Literal('HARDENED'),
]);

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

const TokenFlow = Type.Object(
  {
    flowId: str(),
    documentType: str(),
    seldocTypeFilter: Type.Array(Type.String()),
    confirm: Type.Boolean(),
    scores: Type.Boolean(),
  },
  strict,
);

/** One schema per connector type; the spec's provider-name parts (<scan>, <cloud>) are written
 *  as `scan` and `aws` where a member name needs one. */
export const CONFIG_BY_CONNECTOR: Record<ConnectorType, TObject> = {
  basic_ocr: Type.Object(
    {},
    { ...strict, description: 'works offline in the worker; no settings' },
  ),
  license_registry: Type.Object(
    {
      primaryAuthUrl: opt(uri('token endpoint of the primary registry')),
      primaryDLDVUrl: opt(uri('licence data verification endpoint of the primary registry')),
      secondaryAuthUrl: opt(uri('token endpoint of the secondary registry (failover)')),
      secondaryDLDVUrl: opt(uri('verification endpoint of the secondary registry (failover)')),
      valueFreeDldvPrimaryUrl: opt(uri('value-free (match/no-match only) variant, primary')),
      valueFreeDldvSecondaryUrl: opt(uri('value-free variant, secondary')),
      certPath: opt(str('client certificate for mutual TLS')),
      passphrase: opt(str('passphrase of the client certificate')),
      messageOriginatorId: opt(str()),
      messageDestinationId: opt(str()),
    },
    strict,
  ),
  identity_data: Type.Object({ apiKey: opt(str()), url: opt(uri('provider endpoint')) }, strict),
  liveness: Type.Object(
    {
      apiKey: opt(str()),
      url: opt(uri('face liveness endpoint')),
      documentLivenessCheckAPI: opt(uri('document liveness endpoint')),
      documentApiKey: opt(str()),
      calibration: opt(Calibration),
    },
    strict,
  ),
  face_compare_a: Type.Object(
    {
      accounts: opt(
        Type.Array(
          Type.Object(
            { apiKey: str(), url: uri('detect endpoint base'), urlVerify: uri('verify endpoint') },
            strict,
          ),
          {
            description: 'tried in order: the next account is used when one fails',
          },
        ),
      ),
      retryCount: opt(Type.Number({ minimum: 0, maximum: 10 })),
      returnFaceId: opt(Type.Boolean()),
      returnFaceLandmarks: opt(Type.Boolean()),
      detectionModel: opt(str()),
      recognitionModel: opt(str()),
      returnFaceAttributes: opt(str()),
      faceIdTimeToLive: opt(Type.Number({ minimum: 60, maximum: 86400 })),
    },
    strict,
  ),
  face_compare_b: Type.Object({ apiKey: opt(str()), url: opt(uri('compare endpoint')) }, strict),
  agent_review: Type.Object({ apiKey: opt(str()), url: opt(uri('review queue endpoint')) }, strict),
  auto_review: Type.Object({ apiKey: opt(str()), url: opt(uri('review endpoint')) }, strict),
  people_search: Type.Object(
    {
      apName: opt(str()),
      apPassword: opt(str()),
      searchType: opt(str()),
      url: opt(uri('search endpoint')),
      verifyType: opt(str()),
      verifyUrl: opt(uri('verify endpoint')),
      personSearchType: opt(str()),
      personSearchUrl: opt(uri('person search endpoint')),
    },
    strict,
  ),
  document_auth_a: Type.Object(
    {
      airAccessKey: opt(str()),
      airSecretToken: opt(str()),
      airAPI: opt(uri('document authentication endpoint')),
      faceAPI: opt(uri('face match endpoint')),
      faceAPIKey: opt(str()),
      documentLivenessCheckAPI: opt(uri('document liveness endpoint')),
      document_share_session_enabled: opt(Type.Boolean()),
      accountCode: opt(str('scan sessions')),
      scan_url: opt(uri('scan session endpoint')),
      scan_cert: opt(str('JSON-stringified certificate')),
      scan_key: opt(str('JSON-stringified key')),
      scan_channelConfiguration: opt(ChannelConfiguration),
      scan_channelResponse: opt(
        Type.Array(Type.Union(CHANNEL_RESPONSE_FIELDS.map((f) => Type.Literal(f)))),
      ),
    },
    strict,
  ),
  document_auth_b: Type.Object(
    {
      clientUrl: opt(uri('OAuth token endpoint')),
      clientId: opt(str()),
      clientSecretKey: opt(str()),
      apiUrl: opt(uri('document API base')),
      apiKey: opt(str()),
      faceAPIKey: opt(str()),
      tokenConfiguration: opt(
        Type.Object({ dl: opt(TokenFlow), ppt: opt(TokenFlow), idcard: opt(TokenFlow) }, strict),
      ),
      keepTransaction: opt(Type.Boolean()),
      document_share_session_enabled: opt(Type.Boolean()),
    },
    strict,
  ),
  document_auth_c: Type.Object(
    {
      license: str(),
      clientId: str(),
      clientSecret: str(),
      verifierUrl: uri('verification endpoint'),
      verifierUrlV2: uri('verification endpoint, version 2'),
      document_share_session_enabled: Type.Boolean(),
    },
    strict,
  ),
  face_cloud: Type.Object(
    {
      awsAccessKey: opt(str('access key id of the cloud image-analysis account')),
      awsSecretKey: opt(str('secret access key')),
      awsRegion: opt(str('region, e.g. us-east-1')),
    },
    strict,
  ),
};

/** Members holding secrets, sealed at rest and never returned to a non-system licence. */
export const SECRET_CONFIG_FIELDS = new Set([
  'passphrase',
  'apiKey',
  'documentApiKey',
  'apPassword',
  'airSecretToken',
  'faceAPIKey',
  'scan_key',
  'scan_cert',
  'clientSecretKey',
  'clientSecret',
  'license',
  'awsSecretKey',
]);
