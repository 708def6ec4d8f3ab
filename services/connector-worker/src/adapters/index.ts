// The adapter of each connector type: one table, every adapter the same shape (types.ts). Most are
// plain functions; the few that hold something for the worker's life (an OCR engine, SDK clients)
// are made once per worker and closed with it.
import type { ConnectorType } from '@idv/contracts';
import type { AxiosInstance } from 'axios';
import type { LookupFunction } from 'node:net';
import type { Adapter } from './types.ts';
import { createBasicOcr } from './basic_ocr/index.ts';
import { documentAuthA } from './documentAuthA.ts';
import { documentAuthB } from './documentAuthB.ts';
import { documentAuthC } from './documentAuthC.ts';
import { createFaceCloud } from './faceCloud.ts';
import { faceCompareA } from './faceCompareA.ts';
import { faceCompareB } from './faceCompareB.ts';
import { identityData } from './identityData.ts';
import { createLicenseRegistry } from './licenseRegistry.ts';
import { MtlsAgents } from '../provider/mtlsAgents.ts';
import { liveness } from './liveness.ts';
import { peopleSearch } from './peopleSearch.ts';
import { agentReview, autoReview } from './review.ts';

/** What an adapter may keep for the worker's life. */
export interface AdapterResources {
  http: AxiosInstance;
  /** the SSRF-guarded DNS lookup, for sockets an adapter opens itself */
  lookup: LookupFunction;
}

export interface WorkerAdapter {
  adapter: Adapter;
  close(): Promise<void>;
}

const plain = (adapter: Adapter) => (): WorkerAdapter => ({ adapter, close: async () => {} });

export const ADAPTERS: Record<ConnectorType, (resources: AdapterResources) => WorkerAdapter> = {
  basic_ocr: () => createBasicOcr(),
  license_registry: ({ lookup }) => {
    const agents = new MtlsAgents(lookup);
    return { adapter: createLicenseRegistry(agents), close: async () => agents.close() };
  },
  identity_data: plain(identityData),
  liveness: plain(liveness),
  face_compare_a: plain(faceCompareA),
  face_compare_b: plain(faceCompareB),
  agent_review: plain(agentReview),
  auto_review: plain(autoReview),
  people_search: plain(peopleSearch),
  document_auth_a: plain(documentAuthA),
  document_auth_b: plain(documentAuthB),
  document_auth_c: plain(documentAuthC),
  face_cloud: ({ http }) => ({ adapter: createFaceCloud(http), close: async () => {} }),
};
