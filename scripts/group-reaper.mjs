// A watchdog for the process groups a runner starts (npm test, test:stress): a small detached
// process told each group's id, which SIGKILLs every group it still holds once the runner is gone,
// however it ended (SIGKILL included: its IPC channel closes). The runner's own exit handler
// kills them too; this covers the end no handler sees.
import { spawn } from 'node:child_process';

const WATCHDOG = `
  const groups = new Set();
  process.on('message', (m) => { if (m.add) groups.add(m.add); if (m.remove) groups.delete(m.remove); });
  process.on('disconnect', () => {
    for (const g of groups) { try { process.kill(-g, 'SIGKILL'); } catch {} }
    process.exit(0);
  });`;

export function startReaper() {
  let dog = null;
  try {
    dog = spawn(process.execPath, ['-e', WATCHDOG], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], detached: true });
    dog.on('error', () => (dog = null));
    dog.unref();
    dog.channel?.unref();
  } catch {
    dog = null;
  }
  const send = (m) => {
    try {
      dog?.send(m);
    } catch {
      // the watchdog is gone: the exit handler still kills the groups
    }
  };
  return {
    add: (pgid) => send({ add: pgid }),
    remove: (pgid) => send({ remove: pgid }),
  };
}
