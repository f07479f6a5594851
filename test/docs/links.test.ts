import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

const PAGES = fg.sync(
  ['README.md', 'ARCHITECTURE.md', 'DEPENDENCIES.md', 'docs/**/*.md', 'examples/**/*.md'],
  {
    cwd: ROOT,
    absolute: true,
  },
);

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsIn(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const anchors = new Set<string>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = anchorOf(match[1] ?? '');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Relative markdown links outside code blocks: `[text](path#anchor)`. */
function linksIn(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  const links: string[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1] ?? '';
    if (!/^(https?:|mailto:)/.test(target)) links.push(target);
  }
  return links;
}

describe('documentation links', () => {
  it('finds the pages', () => {
    expect(PAGES.length).toBeGreaterThan(10);
  });

  it.each(
    PAGES.map((page) => relative(ROOT, page)),
  )('%s links only to pages and headings that exist', (page) => {
    const file = join(ROOT, page);
    const broken: string[] = [];
    for (const link of linksIn(file)) {
      const [path = '', anchor] = link.split('#');
      const target = path === '' ? file : join(dirname(file), decodeURIComponent(path));
      if (!existsSync(target)) {
        broken.push(`${link}: no file ${relative(ROOT, target)}`);
      } else if (anchor !== undefined && target.endsWith('.md') && !anchorsIn(target).has(anchor)) {
        broken.push(`${link}: no heading #${anchor} in ${relative(ROOT, target)}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
