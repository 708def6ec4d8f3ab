// Thread of basic_face's pool (adapter.ts): decodes an image through @idv/images, scaled to the
// size the descriptors want (@idv/faces DESCRIBE_SIZE), and describes its faces. CPU work (about
// 0.2-0.5 s an image on one core), kept off the event loop the worker's other jobs share.
import { describeFaces, DESCRIBE_SIZE, faceEngine } from '@idv/faces';
import { serveImageTasks, type Bitmap } from '@idv/images/worker';

export interface Described {
  /** faces found */
  faces: number;
  /** the largest face's descriptor (128 numbers), absent when there is no face */
  descriptor?: number[];
}

async function describe(bitmap: Bitmap): Promise<Described> {
  const faces = await describeFaces(bitmap);
  const largest = faces[0];
  return largest
    ? { faces: faces.length, descriptor: Array.from(largest.descriptor) }
    : { faces: 0 };
}

// the models load as the thread starts (about half a second), not in the first pair's time; a
// failure here fails that pair's describe again, with its reason
faceEngine('descriptor').catch(() => undefined);
serveImageTasks(describe, { workingSize: () => DESCRIBE_SIZE });
