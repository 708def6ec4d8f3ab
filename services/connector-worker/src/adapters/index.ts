// The adapter of each connector type: one table, every adapter the same shape (types.ts).
import type { ConnectorType } from '@idv/contracts';
import type { Adapter } from './types.ts';
import { basicOcr } from './basic_ocr/index.ts';
import { documentAuthA } from './documentAuthA.ts';
import { documentAuthB } from './documentAuthB.ts';
import { documentAuthC } from './documentAuthC.ts';
import { faceCloud } from './faceCloud.ts';
import { faceCompareA } from './faceCompareA.ts';
import { faceCompareB } from './faceCompareB.ts';
import { identityData } from './identityData.ts';
import { licenseRegistry } from './licenseRegistry.ts';
import { liveness } from './liveness.ts';
import { peopleSearch } from './peopleSearch.ts';
import { agentReview, autoReview } from './review.ts';

export const ADAPTERS: Record<ConnectorType, Adapter> = {
  basic_ocr: basicOcr,
  license_registry: licenseRegistry,
  identity_data: identityData,
  liveness,
  face_compare_a: faceCompareA,
  face_compare_b: faceCompareB,
  agent_review: agentReview,
  auto_review: autoReview,
  people_search: peopleSearch,
  document_auth_a: documentAuthA,
  document_auth_b: documentAuthB,
  document_auth_c: documentAuthC,
  face_cloud: faceCloud,
};
