// How a test starts the exchange or the web host as a process: from this run's bundles when
// `npm test` built them (TEST_BUNDLES=1), else from the source under tsx (src-main/chaos/entry.ts).
export { entryArgs } from '../src-main/chaos/entry';
