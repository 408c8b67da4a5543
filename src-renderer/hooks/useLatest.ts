// A ref that always holds the latest value: for callbacks used inside memoised columns or
// handlers that must not be rebuilt on every render, yet must see the current closure.
import { useRef, type MutableRefObject } from 'react';

export function useLatest<T>(value: T): MutableRefObject<T> {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}
