// How many keys one profile may hold: each is a sealed file in the vault and a row the Account
// panel lists, and nothing a trader does needs more. importKey and generateKey refuse past it,
// before anything is stored or minted on the exchange; a key imported again under its own id
// replaces itself and is not counted twice. Rotation replaces a key and is not refused.
import { StateError } from '../base/errors';

export const MAX_KEYS_PER_PROFILE = 16;

/** Throws, naming the cap, when `p` has no room for another key (`apiKeyId`: one already held is replaced, not added). */
export function checkKeyRoom(p: { name: string; keys: readonly { apiKeyId: string }[] }, apiKeyId?: string): void {
  if (apiKeyId !== undefined && p.keys.some((k) => k.apiKeyId === apiKeyId)) return;
  if (p.keys.length >= MAX_KEYS_PER_PROFILE) {
    throw new StateError(`profile "${p.name}" holds ${p.keys.length} keys, at most ${MAX_KEYS_PER_PROFILE}: delete one first; nothing stored`);
  }
}
