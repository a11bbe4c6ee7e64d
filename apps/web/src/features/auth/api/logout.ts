import { api } from '../../../lib/api.ts';

export function logout(token: string) {
  return api.post('/auth/logout', {}, { silent: true, token });
}
