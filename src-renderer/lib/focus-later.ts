// Focus moved for the trader a frame or two later (a panel just shown, a list just rendered),
// unless the trader moved on meanwhile: a key pressed or a click after the command keeps focus
// where the trader put it. Without this, Alt+3 then a quick click on the ladder and a typed size
// could land the digits in the Orders panel a frame later (the frame comes late on a busy machine).
// Focus moved by code meanwhile (a dialog giving focus back as it closes, the palette running a
// command) does not count: the command's focus is what was asked for.
/** `find` is asked now, and when what it gives cannot take focus yet, after `frames` animation frames; `then` runs on what was focused. */
export function focusLater(find: () => HTMLElement | null | undefined, opts: { frames?: number; then?: (el: HTMLElement) => void } = {}): void {
  // at once when it can take focus now (shown and rendered): no frame for a key to slip into
  const now = find();
  if (now) {
    now.focus();
    if (document.activeElement === now) {
      opts.then?.(now);
      return;
    }
  }
  let movedOn = false;
  const onInput = () => {
    movedOn = true;
  };
  // added while the command's own key is dispatched, these do not hear that key (DOM dispatch
  // takes the listeners a target had when the event reached it)
  window.addEventListener('keydown', onInput, true);
  window.addEventListener('pointerdown', onInput, true);
  const frame = (left: number) =>
    requestAnimationFrame(() => {
      if (left > 1) return frame(left - 1);
      window.removeEventListener('keydown', onInput, true);
      window.removeEventListener('pointerdown', onInput, true);
      if (movedOn) return;
      const el = find();
      if (!el) return;
      el.focus();
      opts.then?.(el);
    });
  frame(opts.frames ?? 1);
}
