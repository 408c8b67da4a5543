// Child process for the kill -9 test (crash.test.ts): recovers the journal, replays it
// into a tiny deterministic state, then appends from several producers in a tight loop
// and prints `ack <seq> <producer> <n>` only after each append has resolved (is durable).
// Runs until killed. Usage: node --import tsx crash-child.ts <dir> [producers] [snapshotEvery] [segmentBytes]
import { Journal } from './journal';
import { applyRecord, makeRecord, type CrashRecord, type CrashState } from './crash-model';


async function main(): Promise<void> {
  const [dir, producersArg = '16', snapshotEveryArg = '0', segmentBytesArg = String(64 * 1024 * 1024)] =
    process.argv.slice(2);
  if (!dir) throw new Error('usage: crash-child.ts <dir> [producers] [snapshotEvery] [segmentBytes]');
  const snapshotEvery = Number(snapshotEveryArg);
  const { journal, snapshot, records } = await Journal.open<CrashRecord, CrashState>(dir, {
    segmentBytes: Number(segmentBytesArg),
  });
  const state: CrashState = snapshot?.state ?? { applied: {} };
  for (const { record } of records) applyRecord(state, record);
  process.stdout.write(`ready ${journal.lastSeq}\n`);

  const producer = async (p: number): Promise<void> => {
    for (;;) {
      const rec = makeRecord(p, (state.applied[p] ?? 0) + 1);
      applyRecord(state, rec); // apply and append in one synchronous step, as the engine does
      const acked = journal.append(rec);
      if (snapshotEvery > 0 && journal.lastSeq % snapshotEvery === 0) {
        journal.writeSnapshot(state).catch((err: unknown) => {
          console.error('snapshot failed', err);
          process.exit(3);
        });
      }
      const seq = await acked;
      process.stdout.write(`ack ${seq} ${p} ${rec.n}\n`);
    }
  };
  await Promise.all(Array.from({ length: Number(producersArg) }, (_, p) => producer(p)));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(3);
});
