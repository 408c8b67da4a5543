// Stream names of TerminalApi without any runtime dependency, so the renderer's clients can check
// them without zod. Method names are derived from the contract's channels (contract.ts).
export const STREAM_NAMES = ['books', 'market', 'private', 'connection', 'notices', 'commands', 'risk', 'alerts', 'local', 'fix'] as const;
export type StreamName = (typeof STREAM_NAMES)[number];
