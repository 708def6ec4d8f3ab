// The selfie camera's face guidance: loads the detector (./detector.ts, a chunk of its own, only
// now), runs it a few times a second on the preview while `running`, and gives the advice for the
// newest frame; `onReady`, if given, is called once (and the detections end) when one good face
// has been still long enough. If the detector cannot load or fails, the guidance is 'unavailable'
// and nothing is taken by itself.
import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLatest } from '../latest.ts';
import type { FaceDetector } from './detector.ts';
import { faceGuide, type FaceAdvice } from './guidance.ts';

/** A detection starts at most this often (four a second)... */
const PERIOD_MS = 250;
/** ...and at least this long after the last one ended, so a slow phone's preview stays smooth. */
const PAUSE_MS = 100;

export type FaceGuidance =
  { state: 'starting' } | { state: 'unavailable' } | { state: 'running'; advice: FaceAdvice };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function useFaceGuidance(
  video: RefObject<HTMLVideoElement>,
  options: { enabled: boolean; running: boolean; onReady?: (() => void) | undefined },
): FaceGuidance {
  const [guidance, setGuidance] = useState<FaceGuidance>({ state: 'starting' });
  const detector = useRef<Promise<FaceDetector> | undefined>(undefined);
  const onReady = useLatest(options.onReady);

  useEffect(() => {
    if (!options.enabled || detector.current) return;
    detector.current = import('./detector.ts').then((module) => module.loadFaceDetector());
    detector.current.catch(() => setGuidance({ state: 'unavailable' }));
  }, [options.enabled]);

  useEffect(() => {
    const loading = detector.current;
    if (!options.running || !loading) return;
    let stopped = false;
    const guide = faceGuide();
    void (async () => {
      const faces = await loading;
      while (!stopped) {
        const started = performance.now();
        const element = video.current;
        if (!element?.videoWidth) return;
        const found = await faces.detect(element);
        if (stopped) return;
        const view = {
          frameWidth: element.videoWidth,
          frameHeight: element.videoHeight,
          viewWidth: element.clientWidth || element.videoWidth,
          viewHeight: element.clientHeight || element.videoHeight,
        };
        const { advice, ready } = guide(found, view, started);
        setGuidance({ state: 'running', advice });
        if (ready && onReady.current) return onReady.current();
        const took = performance.now() - started;
        await pause(Math.max(PAUSE_MS, PERIOD_MS - took));
      }
    })().catch(() => !stopped && setGuidance({ state: 'unavailable' }));
    return () => {
      stopped = true;
    };
  }, [options.running, onReady, video]);

  return guidance;
}
