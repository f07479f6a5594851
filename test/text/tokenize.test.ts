import { describe, expect, it } from 'vitest';
import { tokenize } from '../../src/text/tokenize.js';

const texts = (text: string) => tokenize(text).map((token) => token.text);
const parts = (text: string) => tokenize(text).map((token) => token.parts);

describe('tokenize', () => {
  it('lowercases words and drops punctuation', () => {
    expect(texts('Schedule a Meeting, please!')).toEqual(['schedule', 'a', 'meeting', 'please']);
    expect(texts('  ')).toEqual([]);
  });

  it('treats a capitalized word like its lowercase spelling, whatever follows it', () => {
    const followers = [' x', ',', '.', '', '-Up', '_id', '+', '++', '#', 'Case', '2', "'s", 'é'];
    for (const word of ['Create', 'A', 'The']) {
      for (const follower of followers) {
        expect(tokenize(`${word}${follower}`)).toEqual(
          tokenize(`${word.toLowerCase()}${follower}`),
        );
      }
    }
    expect(parts('Create Task')).toEqual([[], []]);
  });

  it('folds accents and full-width forms first', () => {
    expect(texts('Réunion à Genève')).toEqual(['reunion', 'a', 'geneve']);
    expect(texts('ＣＯＤＥ')).toEqual(['code']);
  });

  it('keeps trailing ++, + and # and a leading dot', () => {
    expect(texts('C++ and C# and F# and .NET and grade A+')).toEqual([
      'c++',
      'and',
      'c#',
      'and',
      'f#',
      'and',
      '.net',
      'and',
      'grade',
      'a+',
    ]);
    expect(texts('Ｃ＃')).toEqual(['c#']);
    expect(tokenize('c++')[0]!.parts).toEqual([]);
  });

  it('does not take operators or hashtags as symbols of a word', () => {
    expect(texts('1+1 c + d #todo issue #12 x#y')).toEqual([
      '1',
      '1',
      'c',
      'd',
      'todo',
      'issue',
      '12',
      'x',
      'y',
    ]);
  });

  it('joins compounds on - _ . and keeps their parts', () => {
    expect(tokenize('to-do e-mail node.js create_event')).toEqual([
      { text: 'todo', parts: ['to', 'do'] },
      { text: 'email', parts: ['e', 'mail'] },
      { text: 'nodejs', parts: ['node', 'js'] },
      { text: 'createevent', parts: ['create', 'event'] },
    ]);
    expect(texts('pull‐request')).toEqual(['pullrequest']);
  });

  it('does not join on separators at word edges or doubled', () => {
    expect(texts('end. -x x- a--b file.')).toEqual(['end', 'x', 'x', 'a', 'b', 'file']);
  });

  it('splits identifiers on camelCase, acronyms and letter/digit boundaries', () => {
    expect(parts('getAgenda HTMLParser listIDs oauth2 base64 v2Api')).toEqual([
      ['get', 'agenda'],
      ['html', 'parser'],
      ['list', 'i', 'ds'],
      ['oauth', '2'],
      ['base', '64'],
      ['v', '2', 'api'],
    ]);
    expect(texts('getAgenda')).toEqual(['getagenda']);
  });

  it('removes apostrophes without splitting', () => {
    expect(tokenize("don't user's it’s")).toEqual([
      { text: 'dont', parts: [] },
      { text: 'users', parts: [] },
      { text: 'its', parts: [] },
    ]);
  });

  it('makes each CJK character a token and keeps other scripts as words', () => {
    expect(texts('法令を検索')).toEqual(['法', '令', 'を', '検', '索']);
    expect(texts('Привет, мир')).toEqual(['привет', 'мир']);
    expect(texts('최근 뉴스')).toEqual(['최근', '뉴스']);
  });

  it('ignores emoji and other symbols, including astral ones', () => {
    expect(texts('ship it 🚀 now → done')).toEqual(['ship', 'it', 'now', 'done']);
    expect(texts('𝐛𝐨𝐥𝐝')).toEqual(['bold']);
  });
});
