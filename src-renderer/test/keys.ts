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

/** Binding names whose key and code are not the letter or digit itself. */
const CODES: Record<string, [key: string, code: string]> = {
  enter: ['Enter', 'Enter'],
  equal: ['=', 'Equal'],
  minus: ['-', 'Minus'],
  slash: ['/', 'Slash'],
  comma: [',', 'Comma'],
  backquote: ['`', 'Backquote'],
  bracketleft: ['[', 'BracketLeft'],
  bracketright: [']', 'BracketRight'],
  f1: ['F1', 'F1'],
};

/**
 * Presses a binding ("mod+shift+k", as the keymap writes it) on the focused element, as a keyboard
 * would: modifiers down, key down and up, modifiers up.
 */
export function pressBinding(combo: string): void {
  const parts = combo.split('+');
  const name = parts.pop()!;
  const mods = new Set(parts);
  const [k, code] = CODES[name] ?? (/^\d$/.test(name) ? [name, `Digit${name}`] : [name, `Key${name.toUpperCase()}`]);
  const init = { key: mods.has('shift') && k.length === 1 ? k.toUpperCase() : k, code, ctrlKey: mods.has('mod') || mods.has('ctrl'), altKey: mods.has('alt'), shiftKey: mods.has('shift'), metaKey: mods.has('meta'), bubbles: true };
  const target = document.activeElement ?? document.body;
  const modKeys: [string, string, boolean][] = [
    ['Control', 'ControlLeft', init.ctrlKey],
    ['Alt', 'AltLeft', init.altKey],
    ['Shift', 'ShiftLeft', init.shiftKey],
  ];
  act(() => {
    for (const [mk, c, on] of modKeys) if (on) fireEvent.keyDown(target, { ...init, key: mk, code: c });
    fireEvent.keyDown(target, init);
    fireEvent.keyUp(target, init);
    for (const [mk, c, on] of modKeys.reverse()) if (on) fireEvent.keyUp(target, { ...init, key: mk, code: c, ctrlKey: false, altKey: false, shiftKey: false });
  });
}
