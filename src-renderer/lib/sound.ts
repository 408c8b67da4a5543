// A short two-tone chime for alerts that asked for a sound (the browser shell; Electron's native
// notification plays the system's). WebAudio, no asset; silent where audio is unavailable.
let ctx: AudioContext | null = null;

export function chime(): void {
  try {
    const Ctor = (window as unknown as { AudioContext?: typeof AudioContext }).AudioContext;
    if (!Ctor) return;
    ctx ??= new Ctor();
    const t0 = ctx.currentTime;
    for (const [i, hz] of [880, 1320].entries()) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, t0 + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, t0 + i * 0.12 + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + i * 0.12 + 0.11);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + i * 0.12);
      osc.stop(t0 + i * 0.12 + 0.12);
    }
  } catch {
    /* no audio: the toast is enough */
  }
}
