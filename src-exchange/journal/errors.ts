// One error type for the journal; `code` says which promise was broken.
export type JournalErrorCode =
  | 'CORRUPT' // a record failed its checksum or sequence check somewhere it cannot be a torn tail
  | 'GAP' // records that were acknowledged are missing (deleted segment, unusable snapshot)
  | 'FAILED' // a write or sync failed earlier; nothing further is accepted
  | 'CLOSED'
  | 'LOCKED' // another journal (this process or another) has the directory open
  | 'INVALID_RECORD'
  | 'INVALID_SNAPSHOT'
  | 'SNAPSHOT_FAILED';

export class JournalError extends Error {
  override readonly name = 'JournalError';
  constructor(
    readonly code: JournalErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
