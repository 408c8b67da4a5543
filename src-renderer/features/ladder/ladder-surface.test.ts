// @vitest-environment node
// Where the ladder's canvas is drawn and how the page shows it. Its numbers must reach the screen
// in the same frame as the rows' prices and styles (the DOM): a canvas handed to an OffscreenCanvas
// with transferControlToOffscreen is presented by the compositor on frames of its own, and under
// load it showed the sizes of a window the rows had already left (ghosts beside other prices,
// for hundreds of ms, at 1,500 commands/s). The drawing goes to a detached buffer and the element
// keeps its own 2D context, which the page presents with its DOM.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ladderSurface } from './ladder-canvas';

class FakeOffscreen {
  width: number;
  height: number;
  readonly ctx = { kind: 'buffer' };
  constructor(w: number, h: number) {
    this.width = w;
    this.height = h;
  }
  getContext(kind: string) {
    return kind === '2d' ? this.ctx : null;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

function fakeCanvas() {
  const elementCtx = { kind: 'element' };
  return {
    elementCtx,
    el: {
      width: 300,
      height: 150,
      getContext: vi.fn((kind: string) => (kind === '2d' ? elementCtx : null)),
      transferControlToOffscreen: vi.fn(() => new FakeOffscreen(300, 150)),
    },
  };
}

describe('the ladder canvas surface', () => {
  it('never hands the element to the compositor: it draws on a detached buffer shown through the element’s own context', () => {
    vi.stubGlobal('OffscreenCanvas', FakeOffscreen);
    const c = fakeCanvas();
    const s = ladderSurface(c.el as unknown as HTMLCanvasElement);
    expect(c.el.transferControlToOffscreen).not.toHaveBeenCalled();
    expect(s).not.toBeNull();
    expect(s!.surface).toBeInstanceOf(FakeOffscreen);
    expect(s!.ctx).toBe((s!.surface as FakeOffscreen).ctx);
    expect(s!.screen?.ctx).toBe(c.elementCtx);
    expect(s!.screen?.surface).toBe(c.el);
    expect(s!.screen?.source).toBe(s!.surface);
  });

  it('without OffscreenCanvas it draws on the element’s context itself', () => {
    vi.stubGlobal('OffscreenCanvas', undefined);
    const c = fakeCanvas();
    const s = ladderSurface(c.el as unknown as HTMLCanvasElement);
    expect(c.el.transferControlToOffscreen).not.toHaveBeenCalled();
    expect(s?.ctx).toBe(c.elementCtx);
    expect(s?.surface).toBe(c.el);
    expect(s?.screen).toBeUndefined();
  });
});
