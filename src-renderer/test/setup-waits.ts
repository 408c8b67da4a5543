// Every file of vitest's fresh-module project loads this first (vitest.config.ts, setupFiles).
// testing-library's waits (findBy…, waitFor) give up after 1 s by default, and a renderer test
// that renders a panel and waits for its first query can take longer than that on a busy machine
// (`npm run test:stress` failed BacktestReport.spec's first wait so): they wait on their
// condition for up to 15 s (layout-start and named-layouts had set it for themselves). A wait that holds
// returns as soon as it holds; only a test that fails waits longer to say so.
import { configure } from '@testing-library/dom';

configure({ asyncUtilTimeout: 15_000 });
