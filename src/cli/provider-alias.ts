/**
 * The provider id a `--provider` value names: `gemini` (Google's model family, the name users
 * type) is the `google` provider; every other value is itself.
 */
export function providerAlias(name: string): string {
  return name === 'gemini' ? 'google' : name;
}
