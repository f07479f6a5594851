/** The message of a thrown value: `error.message` for an Error, else its string form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
