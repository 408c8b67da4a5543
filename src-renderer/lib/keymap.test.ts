import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  bindingIndex,
  comboFromEvent,
  findConflicts,
  formatCombo,
  keymapOverrides,
  normalizeCombo,
  rebind,
  resolveKeymap,
} from './keymap';

const key = (code: string, mods: Partial<{ ctrlKey: boolean; altKey: boolean; shiftKey: boolean; metaKey: boolean }> = {}) => ({
  code,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...mods,
});

describe('key map', () => {
  it('has no conflicts among the defaults and binds every panel', () => {
    const map = resolveKeymap();
    expect(findConflicts(map).size).toBe(0);
    for (const a of ACTIONS) expect(normalizeCombo(a.defaultKeys)).toBe(a.defaultKeys);
    expect(ACTIONS.filter((a) => a.id.startsWith('panel.')).every((a) => map[a.id])).toBe(true);
  });

  it('normalizes modifier order, aliases and key names', () => {
    expect(normalizeCombo('Shift+Ctrl+K')).toBe('ctrl+shift+k');
    expect(normalizeCombo('cmd+KeyK')).toBe('meta+k');
    expect(normalizeCombo('alt+Digit1')).toBe('alt+1');
    expect(normalizeCombo('esc')).toBe('escape');
    expect(normalizeCombo('shift+/')).toBe('shift+slash');
  });

  it('rejects bindings that are not one key plus modifiers', () => {
    expect(normalizeCombo('')).toBeNull();
    expect(normalizeCombo('ctrl')).toBeNull();
    expect(normalizeCombo('a+b')).toBeNull();
    expect(normalizeCombo('ctrl+')).toBeNull();
    expect(normalizeCombo('hyper+x')).toBeNull();
  });

  it('overlays saved overrides, keeps defaults for unreadable ones and honours unbinding', () => {
    const map = resolveKeymap({ 'trade.buyBid': 'Shift+J', 'trade.sellAsk': 'not a key', 'trade.flatten': '', 'gone.action': 'k' });
    expect(map['trade.buyBid']).toBe('shift+j');
    expect(map['trade.sellAsk']).toBe('s');
    expect(map['trade.flatten']).toBe('');
    expect(map['gone.action']).toBeUndefined();
  });

  it('persists only what differs from the defaults', () => {
    const map = resolveKeymap({ 'trade.buyBid': 'j' });
    expect(keymapOverrides(map)).toEqual({ 'trade.buyBid': 'j' });
    expect(keymapOverrides(resolveKeymap())).toEqual({});
  });

  it('reports a binding shared by two actions as a conflict', () => {
    const map = { ...resolveKeymap(), 'trade.flatten': 'b' };
    expect(findConflicts(map).get('b')).toEqual(['trade.buyBid', 'trade.flatten']);
    expect(bindingIndex(map).get('b')).toBe('trade.buyBid');
  });

  it('rebinding takes the key from the action that held it and says so', () => {
    const { map, displaced } = rebind(resolveKeymap(), 'trade.flatten', 'B');
    expect(map['trade.flatten']).toBe('b');
    expect(map['trade.buyBid']).toBe('');
    expect(displaced).toEqual(['trade.buyBid']);
    expect(findConflicts(map).size).toBe(0);
    expect(() => rebind(map, 'trade.flatten', 'ctrl')).toThrow(/not a key binding/);
  });

  it('records key presses with mod meaning Ctrl off macOS and Cmd on macOS', () => {
    expect(comboFromEvent(key('KeyK', { ctrlKey: true }), false)).toBe('mod+k');
    expect(comboFromEvent(key('KeyK', { metaKey: true }), true)).toBe('mod+k');
    expect(comboFromEvent(key('Digit3', { altKey: true }), false)).toBe('alt+3');
    expect(comboFromEvent(key('Slash', { shiftKey: true }), false)).toBe('shift+slash');
    expect(comboFromEvent(key('ShiftLeft', { shiftKey: true }), false)).toBeNull();
  });

  it('formats bindings for people', () => {
    expect(formatCombo('mod+k', false)).toBe('Ctrl+K');
    expect(formatCombo('mod+k', true)).toBe('⌘K');
    expect(formatCombo('shift+slash', false)).toBe('?');
    expect(formatCombo('alt+minus', false)).toBe('Alt+-');
    expect(formatCombo('', false)).toBe('');
  });
});
