// basic_ocr: reads documents offline in the worker (PDF417 licence barcodes, passport MRZ by OCR).
import { Type } from '@sinclair/typebox';
import { defineConnector, strict } from '../connector.ts';

export const basic_ocr = defineConnector({
  type: 'basic_ocr',
  kinds: ['dl_authenticate', 'ppt_authenticate', 'idcard_authenticate', 'dl_verify'],
  configArrays: ['id_capture'],
  config: Type.Object({}, { ...strict, description: 'works offline in the worker; no settings' }),
  secrets: [],
  addresses: [],
  // OCR is CPU work: one job per core, a bigger pod, a short backlog before another replica
  deployment: { compute: 'cpu', backlogPerReplica: 2 },
});
