// Errors the services raise for the door to turn into TerminalErrors (the bottom floor of main: imports nothing of it).

/** The call is refused by the terminal's own state or rules (no session, no such profile...). */
export class StateError extends Error {
  override name = 'StateError';
  /** a machine-readable reason the UI acts on (e.g. key_still_valid), when there is one */
  readonly code: string | undefined;

  constructor(message: string, code?: string) {
    super(message);
    this.code = code;
  }
}

/** A file main keeps (profiles, preferences, risk limits...) that does not parse: named, never overwritten. */
export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
}
