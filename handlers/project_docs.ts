/**
 * The `project_docs` executor: a project's Markdown documents stored as JSON in
 * `<dataDir>/project_docs/<project_id>.json`, updated under a file lock with atomic
 * write-rename.
 * @module
 */

import type { ToolContext, ToolHandlerOptions } from '../src/entries/handler-kit.js';
import {
  createId,
  readJsonFile,
  requireContextString,
  scoreText,
  storeFile,
  ToolError,
  tokenizeWords,
  updateJsonFile,
} from '../src/entries/handler-kit.js';

/** One document as stored. */
export interface ProjectDoc {
  id: string;
  title: string;
  content: string;
  created_at: string;
  updated_at: string;
}

/** A document without its content, as listed. */
export interface ProjectDocSummary {
  id: string;
  title: string;
  updated_at: string;
  characters: number;
}

interface DocStore {
  version: 1;
  docs: ProjectDoc[];
}

const PASSAGE_CHARACTERS = 500;

/** The project's documents, most recently updated first. */
export async function list_project_docs(
  _input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
): Promise<{ docs: ProjectDocSummary[]; count: number }> {
  const store = await readStore(context, options);
  const docs = store.docs
    .map(summarize)
    .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || a.title.localeCompare(b.title));
  return { docs, count: docs.length };
}

/** One document, content included. */
export async function read_project_doc(
  input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
): Promise<{ doc: ProjectDoc }> {
  const store = await readStore(context, options);
  return { doc: findDoc(store, String(input.doc_id)) };
}

/** Creates a document, or replaces title and content of `doc_id`. */
export async function write_project_doc(
  input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
): Promise<{ doc: ProjectDocSummary; created: boolean }> {
  const title = String(input.title);
  const content = String(input.content);
  const docId = typeof input.doc_id === 'string' ? input.doc_id : undefined;
  return updateJsonFile<DocStore, { doc: ProjectDocSummary; created: boolean }>(
    storePath(context, options),
    emptyStore,
    (raw) => {
      const store = checkStore(raw);
      const now = new Date().toISOString();
      if (docId !== undefined) {
        const doc = findDoc(store, docId);
        doc.title = title;
        doc.content = content;
        doc.updated_at = now;
        return { value: store, result: { doc: summarize(doc), created: false } };
      }
      const doc: ProjectDoc = {
        id: createId('doc'),
        title,
        content,
        created_at: now,
        updated_at: now,
      };
      store.docs.push(doc);
      return { value: store, result: { doc: summarize(doc), created: true } };
    },
    { signal: options.signal },
  );
}

/** Paragraphs that match the words of `query` (title matches count too), best first. */
export async function search_project_docs(
  input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
): Promise<{
  query: string;
  results: { doc_id: string; title: string; line: number; passage: string; score: number }[];
  count: number;
}> {
  const query = String(input.query);
  const limit = typeof input.limit === 'number' ? input.limit : 10;
  const terms = tokenizeWords(query);
  const store = await readStore(context, options);
  const results: { doc_id: string; title: string; line: number; passage: string; score: number }[] =
    [];
  for (const doc of store.docs) {
    const titleScore = scoreText(terms, doc.title);
    splitPassages(doc.content).forEach(({ line, text }, index) => {
      const passageScore = scoreText(terms, text);
      // a title match alone surfaces the document's first passage
      if (passageScore === 0 && (titleScore === 0 || index > 0)) return;
      const score = passageScore + 0.5 * titleScore;
      results.push({
        doc_id: doc.id,
        title: doc.title,
        line,
        passage: text.length > PASSAGE_CHARACTERS ? `${text.slice(0, PASSAGE_CHARACTERS)}…` : text,
        score,
      });
    });
  }
  results.sort((a, b) => b.score - a.score || a.title.localeCompare(b.title) || a.line - b.line);
  const top = results.slice(0, limit);
  return { query, results: top, count: top.length };
}

/** Paragraphs (blank-line separated) with their 1-based first line. */
function splitPassages(content: string): { line: number; text: string }[] {
  const passages: { line: number; text: string }[] = [];
  let current: string[] = [];
  let firstLine = 1;
  content.split('\n').forEach((line, index) => {
    if (line.trim() === '') {
      if (current.length > 0) passages.push({ line: firstLine, text: current.join('\n') });
      current = [];
      return;
    }
    if (current.length === 0) firstLine = index + 1;
    current.push(line);
  });
  if (current.length > 0) passages.push({ line: firstLine, text: current.join('\n') });
  return passages;
}

function summarize(doc: ProjectDoc): ProjectDocSummary {
  return {
    id: doc.id,
    title: doc.title,
    updated_at: doc.updated_at,
    characters: doc.content.length,
  };
}

function findDoc(store: DocStore, docId: string): ProjectDoc {
  const doc = store.docs.find((candidate) => candidate.id === docId);
  if (doc === undefined) {
    throw new ToolError(
      'DOC_NOT_FOUND',
      `No document in this project has the id ${JSON.stringify(docId)}; call list_project_docs to see the ids.`,
      { doc_id: docId },
    );
  }
  return doc;
}

async function readStore(context: ToolContext, options: ToolHandlerOptions): Promise<DocStore> {
  return checkStore(await readJsonFile(storePath(context, options), emptyStore));
}

function storePath(context: ToolContext, options: ToolHandlerOptions): string {
  return storeFile(
    options.dataDir,
    'project_docs',
    requireContextString(context, 'project_id'),
    '.json',
  );
}

function emptyStore(): DocStore {
  return { version: 1, docs: [] };
}

function checkStore(raw: unknown): DocStore {
  if (raw !== null && typeof raw === 'object' && Array.isArray((raw as { docs?: unknown }).docs)) {
    return raw as DocStore;
  }
  throw new ToolError(
    'STORE_CORRUPT',
    'The project document store does not hold {"docs": [...]}; move it away to start empty.',
    {},
  );
}
