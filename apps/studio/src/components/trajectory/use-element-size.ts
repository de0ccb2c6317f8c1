'use client';
import { useLayoutEffect, useState, type RefObject } from 'react';
import type { Size } from './viewport';

/** The element's size, measured before the first paint and kept current; null until it has one (e.g. while hidden). */
export function useElementSize(ref: RefObject<HTMLElement | null>): Size | null {
  const [size, setSize] = useState<Size | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element === null) return;
    const measure = () => {
      const { width, height } = element.getBoundingClientRect();
      setSize((previous) => {
        if (width <= 0 || height <= 0) return previous;
        return previous?.width === width && previous.height === height ? previous : { width, height };
      });
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}
