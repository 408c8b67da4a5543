// Errors the services raise for the door to turn into TerminalErrors.

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
