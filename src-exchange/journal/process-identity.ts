// Who a PID is right now. A PID alone does not name a process: a killed process can linger as
// a zombie (its PID still answers kill(pid, 0)), and after a reboot or a long run the same
// number is handed to an unrelated process. The journal's lock therefore records the holder's
// start identity (boot + start time) and compares it with the live process that has the PID.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export type ProcessProbe =
  /** no process has this PID, or only a zombie / dead entry waiting to be reaped */
  | { state: 'gone' }
  /** a live process; `identity` is null where the platform would not tell its start */
  | { state: 'running'; identity: string | null };

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else (still a live process for our purpose)
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let bootId: string | null | undefined;
function linuxBootId(): string | null {
  if (bootId === undefined) {
    try {
      bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      bootId = null;
    }
  }
  return bootId;
}

/**
 * Linux: /proc/<pid>/stat. The command name (field 2) may hold spaces and parentheses, so the
 * fields are read after the last ')': field 3 is the state, field 22 the start time in clock
 * ticks since boot. Together with the boot id that names one process for all time.
 */
export function parseProcStat(stat: string): { state: string; startTicks: string } | null {
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const fields = stat.slice(close + 1).trim().split(/\s+/);
  const state = fields[0];
  const startTicks = fields[19];
  if (!state || !startTicks || !/^\d+$/.test(startTicks)) return null;
  return { state, startTicks };
}

function probeLinux(pid: number): ProcessProbe | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ESRCH') return { state: 'gone' };
    return null; // /proc unreadable (hardened mount): let the caller fall back
  }
  const parsed = parseProcStat(stat);
  if (!parsed) return null;
  // Z zombie, X dead: the process has exited and only waits for its parent to reap it.
  if (parsed.state === 'Z' || parsed.state === 'X' || parsed.state === 'x') return { state: 'gone' };
  return { state: 'running', identity: `linux:${linuxBootId() ?? 'unknown-boot'}:${parsed.startTicks}` };
}

/** macOS and the BSDs: ps tells the state (Z = zombie) and the full start time. */
function probePs(pid: number): ProcessProbe | null {
  try {
    const out = execFileSync('ps', ['-o', 'stat=', '-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      timeout: 5_000,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' },
    }).trim();
    if (out === '') return { state: 'gone' };
    const m = /^(\S+)\s+(.+)$/.exec(out);
    if (!m) return null;
    if (m[1]!.startsWith('Z')) return { state: 'gone' };
    return { state: 'running', identity: `ps:${m[2]!.replace(/\s+/g, ' ')}` };
  } catch (err) {
    // ps exits 1 when no process matches
    if ((err as { status?: number }).status === 1) return { state: 'gone' };
    return null;
  }
}

/**
 * Windows has no zombies; the start time tells a reused PID apart. Identity `win:<Unix ms>`
 * of the process's start, compared with a tolerance (sameProcess): a process's own start is
 * known without asking PowerShell (now - uptime), another's is asked only when a LOCK is met.
 */
function probeWindows(pid: number): ProcessProbe | null {
  try {
    const out = execFileSync(
      'powershell.exe',
      ['-NoProfile', '-NonInteractive', '-Command', `[DateTimeOffset]::new((Get-Process -Id ${pid} -ErrorAction Stop).StartTime).ToUnixTimeMilliseconds()`],
      { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true },
    ).trim();
    if (!/^\d+$/.test(out)) return null;
    return { state: 'running', identity: `win:${out}` };
  } catch {
    return null;
  }
}

const WINDOWS_START_TOLERANCE_MS = 5_000;

/** Whether two start identities name the same process (exact, except Windows start times). */
export function sameProcess(a: string, b: string): boolean {
  const wa = /^win:(\d+)$/.exec(a);
  const wb = /^win:(\d+)$/.exec(b);
  if (wa && wb) return Math.abs(Number(wa[1]) - Number(wb[1])) <= WINDOWS_START_TOLERANCE_MS;
  return a === b;
}

export function probeProcess(pid: number): ProcessProbe {
  if (!Number.isSafeInteger(pid) || pid <= 0) return { state: 'gone' };
  if (!signalable(pid)) return { state: 'gone' };
  const probe =
    process.platform === 'linux' ? probeLinux(pid) : process.platform === 'win32' ? probeWindows(pid) : probePs(pid);
  // Nothing more could be learned: it answers signals, so take it as running, identity unknown.
  return probe ?? { state: 'running', identity: null };
}

let own: string | null | undefined;
/** This process's own start identity (computed once; it cannot change). */
export function ownIdentity(): string | null {
  if (own === undefined) {
    if (process.platform === 'win32') {
      own = `win:${Math.round(Date.now() - process.uptime() * 1000)}`;
    } else {
      const p = probeProcess(process.pid);
      own = p.state === 'running' ? p.identity : null;
    }
  }
  return own;
}
