// useLatest: a ref that always holds the latest `value`, for an effect that runs once (a camera
// opened, a status polled) yet must call the parent's current callback, not the first render's.
import { useRef } from 'preact/hooks';

export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}
