// The tests mutation testing runs against (npm run mutation): the fast tests of the modules that
// guard money and orders. Tests that start processes stay out (each mutant reruns the tests that
// cover it, and those take seconds each); the host's tests start it on a loopback port in
// milliseconds and are in.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src-shared/money.test.ts',
      'src-renderer/lib/order-check.test.ts',
      'src-exchange/engine/fees.test.ts',
      'src-exchange/engine/engine.test.ts',
      'src-exchange/engine/orders.test.ts',
      'src-exchange/engine/book.test.ts',
      'src-exchange/engine/matching.test.ts',
      'src-exchange/engine/groups.test.ts',
      'src-exchange/engine/block.test.ts',
      'src-exchange/engine/engine.property.test.ts',
      'src-exchange/engine/order-columns.test.ts',
      'src-exchange/engine/order-index.test.ts',
      'src-exchange/engine/prune.test.ts',
      'src-exchange/engine/archive.test.ts',
      'src-exchange/journal/journal.test.ts',
      'src-exchange/journal/snapshot.test.ts',
      'src-exchange/journal/recover.test.ts',
      'src-exchange/journal/frame.test.ts',
      'src-main/host/host.int.test.ts',
      'src-main/host/host-hostile.int.test.ts',
      'src-main/api/signer.test.ts',
      'src-main/api/orders.test.ts',
      'src-main/market/book.test.ts',
      'src-main/market/books.test.ts',
      'src-main/market/frame.test.ts',
      'src-main/ipc/door.test.ts',
      'src-main/session/private-store.test.ts',
    ],
    environment: 'node',
    pool: 'threads',
    testTimeout: 30_000,
  },
});
