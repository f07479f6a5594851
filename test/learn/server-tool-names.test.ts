import { describe, expect, it } from 'vitest';
import {
  findServerToolKey,
  mayBeRenamedTool,
  serverToolNameCandidates,
} from '../../src/migrate/server-tool-names.js';

describe("the server's name of a tool the gateway lists", () => {
  it('tries the listed name, then the name without the "<group>_" prefix', () => {
    expect(serverToolNameCandidates('beta_echo', 'beta')).toEqual(['beta_echo', 'echo']);
    expect(serverToolNameCandidates('echo', 'beta')).toEqual(['echo']);
    expect(serverToolNameCandidates('beta_', 'beta')).toEqual(['beta_']);
    expect(mayBeRenamedTool('beta_echo', 'beta')).toBe(true);
    expect(mayBeRenamedTool('betamax', 'beta')).toBe(false);
  });

  it('prefers an exact key to a converted one, and the listed name to the stripped one', () => {
    expect(findServerToolKey('search_docs', 'beta', ['search-docs'])).toBe('search-docs');
    expect(findServerToolKey('search_docs', 'beta', ['search-docs', 'search_docs'])).toBe(
      'search_docs',
    );
    expect(findServerToolKey('beta_echo', 'beta', ['echo', 'beta_echo'])).toBe('beta_echo');
    expect(findServerToolKey('beta_echo', 'beta', ['Echo', 'echo'])).toBe('echo');
    expect(findServerToolKey('beta_search_docs', 'beta', ['search-docs'])).toBe('search-docs');
    expect(findServerToolKey('beta_echo', 'beta', ['shout'])).toBeUndefined();
  });
});
