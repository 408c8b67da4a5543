// Errors the services raise for the door to turn into TerminalErrors.

/** The call is refused by the terminal's own state or rules (no session, no such profile...). */
export class StateError extends Error {
  override name = 'StateError';
}
