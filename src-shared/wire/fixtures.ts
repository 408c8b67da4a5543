// The fixture corpus: the real service's own published examples (src-shared/wire/fixtures/),
// each with where it was published and when it was read. Loaded by the tests that parse them
// through exactly the terminal's code paths.
export interface Fixture {
  /** file name under fixtures/<kind>/ */
  file: string;
  source: string;
  retrieved: string;
  kind: 'ws' | 'rest';
  /** for rest: the endpoint row id */
  endpoint?: string;
  /** why the example predates the spec, when it does */
  olderThanSpec?: string;
  note?: string;
  example: unknown;
}
