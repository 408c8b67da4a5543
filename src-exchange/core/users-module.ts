import type { DomainModule } from '../state/domain';
import { applyUsers, emptyUsers, type UsersCommand, type UsersState } from '../state/users';

export const usersModule: DomainModule<UsersState, UsersCommand> = {
  name: 'users',
  commandTypes: ['createUser', 'addApiKey', 'deleteApiKey', 'grantUsageLevel'],
  empty: emptyUsers,
  apply(state, cmd) {
    const r = applyUsers(state, cmd);
    if (r.ok) return { ok: true };
    return { ok: false, code: r.code, message: r.message, status: r.code === 'not_found' ? 404 : r.code === 'conflict' ? 409 : 400 };
  },
};
