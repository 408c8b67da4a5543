// @vitest-environment jsdom
// A panel's focus, given a frame later when it cannot be given at once, never moves focus away
// from where the trader went meanwhile (a key pressed, a click): Alt+3 then a quick click on the
// ladder and digits keep the digits in the ladder.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { focusLater } from './focus-later';

let frames: FrameRequestCallback[] = [];
const runFrame = () => {
  const now = frames;
  frames = [];
  for (const f of now) f(0);
};

beforeEach(() => {
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => frames.push(f));
  document.body.innerHTML = '<input id="ladder"><div id="panel"></div>';
});
afterEach(() => vi.unstubAllGlobals());

const el = (id: string) => document.getElementById(id);
const addTarget = () => {
  const input = document.createElement('input');
  input.id = 'target';
  el('panel')!.append(input);
  return input;
};

describe('focusLater', () => {
  it('focuses at once what can take focus now, with no frame for a key to slip into', () => {
    const target = addTarget();
    const then = vi.fn();
    focusLater(() => el('target'), { then });
    expect(document.activeElement).toBe(target);
    expect(then).toHaveBeenCalledWith(target);
    expect(frames).toHaveLength(0);
  });

  it('focuses a target rendered later after the frame, counting the frames asked for', () => {
    focusLater(() => el('target'), { frames: 2 });
    const target = addTarget();
    runFrame();
    expect(document.activeElement).not.toBe(target);
    runFrame();
    expect(document.activeElement).toBe(target);
  });

  it('keeps focus where the trader went when a key is pressed before the frame', () => {
    focusLater(() => el('target'));
    addTarget();
    el('ladder')!.focus();
    el('ladder')!.dispatchEvent(new KeyboardEvent('keydown', { key: '1', bubbles: true }));
    runFrame();
    expect(document.activeElement).toBe(el('ladder'));
  });

  it('keeps focus where the trader clicked before the frame', () => {
    focusLater(() => el('target'));
    addTarget();
    el('ladder')!.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    el('ladder')!.focus();
    runFrame();
    expect(document.activeElement).toBe(el('ladder'));
  });

  it('focus moved by code meanwhile (a dialog giving it back) does not cancel it, and it stops listening after its frame', () => {
    focusLater(() => el('target'));
    const target = addTarget();
    el('ladder')!.focus();
    runFrame();
    expect(document.activeElement).toBe(target);
    // a later key is none of its business: nothing more happens
    el('ladder')!.focus();
    el('ladder')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'b', bubbles: true }));
    runFrame();
    expect(document.activeElement).toBe(el('ladder'));
  });
});
