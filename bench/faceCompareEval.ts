// The evaluation behind basic_face's threshold (issue 29, item 5): `npx tsx bench/faceCompareEval.ts`
// (make bench runs it too) writes bench/results/face-compare.md, which docs/connectors.md quotes.
// Faces: every face SSD finds in the six sample photos of the face-api package (group photos, the
// only photos of people available offline; none is committed). For each face, a selfie (a crop
// around it, 3 face widths, brightened) and two document portraits made from the same photo as a
// card would carry it: one tighter crop, 230 px wide, faded and softened, on a 1000x630 card; one
// mirrored, turned 6 degrees, 260 px wide, on another card. Genuine pairs: a face's selfie against
// its own two cards; impostor pairs: against every other face's cards. basic_face's work on each
// image (@idv/faces describeFaces, decoded at its size), then the score 100 x (1 - distance).
// Limits, said in docs/connectors.md: the genuine pairs come from one photo each (a real document photo
// is years older, so real genuine scores are lower and the real false-reject rate higher), and the
// same person may appear in two sample photos (an impostor pair that is not one).
import { writeFileSync } from 'node:fs';
import { Jimp } from 'jimp';
import { describeFaces, detectFaces, faceDistance } from '@idv/faces';
import { brighter, samplePhoto, SAMPLE_PHOTOS } from '@idv/samples/realFaces';

type Image = Awaited<ReturnType<typeof samplePhoto>>;

const THRESHOLDS = [40, 45, 50, 55, 60];
const CHOSEN = 50;

interface Face {
  selfie: Float32Array | undefined;
  cards: (Float32Array | undefined)[];
}

async function descriptor(image: Image): Promise<Float32Array | undefined> {
  return (await describeFaces(image.bitmap))[0]?.descriptor;
}

function card(portrait: Image, width: number, height: number, x: number, y: number): Image {
  const ground = new Jimp({ width, height, color: 0xe8ecf0ff });
  ground.composite(portrait, x, y);
  return ground as unknown as Image;
}

async function facesOf(n: (typeof SAMPLE_PHOTOS)[number]): Promise<Face[]> {
  const photo = await samplePhoto(n);
  const [W, H] = [photo.width, photo.height];
  const found = await detectFaces(photo.bitmap);
  const out: Face[] = [];
  for (const box of found) {
    const [bx, by, bw, bh] = [box.x * W, box.y * H, box.width * W, box.height * H];
    const crop = (widths: number, shift = 0) => {
      const w = Math.round(bw * widths);
      const h = Math.round((w * 4) / 3);
      const x = Math.max(0, Math.round(bx + bw / 2 - w / 2 + shift * bw));
      const y = Math.max(0, Math.round(by + bh / 2 - h * 0.45));
      return photo.clone().crop({ x, y, w: Math.min(w, W - x), h: Math.min(h, H - y) }) as Image;
    };
    const faded = crop(1.8, 0.05).resize({ w: 230 }) as Image;
    faded.color([{ apply: 'desaturate', params: [60] }]).blur(1);
    const turned = crop(2.2, -0.05)
      .flip({ horizontal: true })
      .rotate(6)
      .resize({ w: 260 }) as Image;
    out.push({
      selfie: await descriptor(brighter(crop(3), 1.3)),
      cards: [
        await descriptor(card(faded, 1000, 630, 40, 120)),
        await descriptor(card(turned, 1000, 630, 700, 100)),
      ],
    });
  }
  return out;
}

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(2)} %`;

export async function evaluateFaceCompare(): Promise<string> {
  const faces: Face[] = [];
  for (const n of SAMPLE_PHOTOS) faces.push(...(await facesOf(n)));
  const images = faces.length * 3;
  const missed = faces.reduce((sum, f) => sum + [f.selfie, ...f.cards].filter((d) => !d).length, 0);
  const genuine: number[] = [];
  const impostor: number[] = [];
  faces.forEach((a, i) =>
    faces.forEach((b, j) => {
      for (const cardDescriptor of b.cards) {
        if (!a.selfie || !cardDescriptor) continue;
        const score = 100 * (1 - faceDistance(a.selfie, cardDescriptor));
        (i === j ? genuine : impostor).push(score);
      }
    }),
  );
  const rows = THRESHOLDS.map((t) => {
    const accepted = impostor.filter((s) => s >= t).length;
    const rejected = genuine.filter((s) => s < t).length;
    const mark = t === CHOSEN ? ' (chosen)' : '';
    return `| ${t}${mark} | ${percent(accepted, impostor.length)} (${accepted} of ${impostor.length}) | ${percent(rejected, genuine.length)} (${rejected} of ${genuine.length}) |`;
  });
  const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
  const [g, im] = [sorted(genuine), sorted(impostor)];
  return [
    `# basic_face: evaluation of the threshold`,
    ``,
    `${new Date().toISOString().slice(0, 10)}, bench/faceCompareEval.ts: ${faces.length} faces of the face-api package's six sample photos; ${genuine.length} genuine and ${impostor.length} impostor pairs (selfie against a card); ${missed} of ${images} images had no face found (failure to acquire: basic_face answers inconclusive).`,
    ``,
    `| threshold (score) | false accepts (impostor pairs at or over it) | false rejects (genuine pairs under it) |`,
    `|---|---|---|`,
    ...rows,
    ``,
    `Genuine scores ${g[0]?.toFixed(1)}..${g.at(-1)?.toFixed(1)} (median ${g[g.length >> 1]?.toFixed(1)}); the highest impostor scores ${im
      .slice(-3)
      .map((s) => s.toFixed(1))
      .join(', ')}.`,
    ``,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const markdown = await evaluateFaceCompare();
  writeFileSync(new URL('./results/face-compare.md', import.meta.url), markdown);
  console.log(markdown);
}
