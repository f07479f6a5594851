/**
 * The message of a thrown value: `error.message` for an Error, else its string form. Never
 * throws, whatever was thrown: a value whose message getter, `toString` or proxy traps throw is
 * described by its type.
 */
export function errorMessage(error: unknown): string {
  try {
    if (error instanceof Error) {
      const { message } = error;
      if (typeof message === 'string') return message;
    }
    return String(error);
  } catch {
    return `a thrown value that cannot be described (${typeof error})`;
  }
}

/**
 * The `name` and string `code` of a thrown value (`code` as on Node's system errors), for error
 * details; never throws, and leaves out what cannot be read as a string.
 */
export function errorIdentity(error: unknown): { name: string; code?: string } {
  try {
    if (error === null || typeof error !== 'object') return { name: typeof error };
    const name = error instanceof Error && typeof error.name === 'string' ? error.name : 'object';
    if (!('code' in error)) return { name };
    const { code } = error;
    return typeof code === 'string' || typeof code === 'number'
      ? { name, code: String(code) }
      : { name };
  } catch {
    return { name: typeof error };
  }
}
