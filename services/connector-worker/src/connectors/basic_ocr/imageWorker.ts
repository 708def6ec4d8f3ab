// Thread of basic_ocr's image pool (imageReader.ts): decodes a document image through
// @idv/images and reads it: the PDF417 text, or the greyscale PNG the passport OCR reads best.
// CPU and memory work, kept off the event loop the worker's other jobs share.
import { readPdf417 } from '@idv/docread';
import { greyPng, serveImageTasks, type Bitmap } from '@idv/images/worker';
import type { ImageTask } from './imageReader.ts';

async function run(bitmap: Bitmap, job: ImageTask): Promise<string | Uint8Array | undefined> {
  const data = new Uint8Array(bitmap.data.buffer, bitmap.data.byteOffset, bitmap.data.byteLength);
  if (job.task === 'pdf417') return readPdf417({ ...bitmap, data });
  return new Uint8Array(await greyPng(bitmap));
}

serveImageTasks(run);
