// face_cloud: face comparison by a cloud image-analysis service's CompareFaces (SigV4-signed).
import { Type } from '@sinclair/typebox';
import { defineConnector, opt, str, strict } from '../connector.ts';

export const face_cloud = defineConnector({
  type: 'face_cloud',
  kinds: ['face_compare'],
  configArrays: ['face_rekognition'],
  config: Type.Object(
    {
      awsAccessKey: opt(str('access key id of the cloud image-analysis account')),
      awsSecretKey: opt(str('secret access key')),
      awsRegion: opt(str('region, e.g. us-east-1')),
    },
    strict,
  ),
  secrets: ['awsSecretKey'],
  // the cloud SDK always goes to connectorUrl; the region only scopes the signature
  addresses: [],
  deployment: { compute: 'io' },
});
