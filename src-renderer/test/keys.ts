// A key pressed where the focus is (jsdom specs): keydown then keyup, bubbling, inside act().
import { act, fireEvent } from '@testing-library/react';

export interface KeyInit {
  key: string;
  code: string;
  altKey?: boolean;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
}

export function key(init: KeyInit): void {
  const target = document.activeElement ?? document.body;
  act(() => {
    fireEvent.keyDown(target, { ...init, bubbles: true });
    fireEvent.keyUp(target, { ...init, bubbles: true });
  });
}
