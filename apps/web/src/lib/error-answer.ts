import { type ErrorCode, type ErrorDetails, errorMessage, isErrorCode } from '@bot/contracts';

/**
 * What the app reads of an error answer, HTTP or socket (`{error, code, details?}`). A code the
 * contracts' table knows is worded by the table with the answer's details, as the server worded it
 * (docs/decisions/012-one-error-table.md); a code it does not know (a newer server) keeps the
 * server's text.
 */
export function messageOf(payload: unknown): string | undefined {
  const code = codeOf(payload);
  if (!isErrorCode(code)) return serverTextOf(payload);
  try {
    return errorMessage<ErrorCode>(code, detailsOf(payload) as ErrorDetails<ErrorCode>);
  } catch {
    // Details this version's table does not expect (a server of another version): its own words.
    return serverTextOf(payload);
  }
}

export function codeOf(payload: unknown): string {
  if (payload && typeof payload === 'object' && 'code' in payload) {
    const { code } = payload as { code: unknown };
    if (typeof code === 'string') return code;
  }
  return 'UNKNOWN';
}

export function detailsOf(payload: unknown): unknown {
  return payload && typeof payload === 'object' && 'details' in payload ? payload.details : undefined;
}

function serverTextOf(payload: unknown): string | undefined {
  if (payload && typeof payload === 'object' && 'error' in payload) {
    const { error } = payload as { error: unknown };
    if (typeof error === 'string' && error.trim()) return error;
  }
  return undefined;
}
