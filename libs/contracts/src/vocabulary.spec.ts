import { LANGUAGES } from './refusals';
import { NOTIFICATION_CHANNELS } from './notifications';
import {
  GATES,
  GATE_NAMES,
  GATE_NEXT_ACTIONS,
  GATE_TABLE,
  NOTIFICATION_CHANNEL_NAMES,
  PROJECT_ROLES,
  PROJECT_ROLE_NAMES,
  QUESTION_AUTHORS,
  QUESTION_AUTHOR_NAMES,
  nextActionOnApproval,
} from './vocabulary';

describe('the gate table (SPEC §5)', () => {
  it('lists the gates in pipeline order, each next gate a later one', () => {
    expect(GATES).toEqual(['qa', 'secops']);
    GATE_TABLE.forEach((row, i) => {
      if (row.next !== null) expect(GATES.indexOf(row.next)).toBeGreaterThan(i);
    });
    expect(GATE_TABLE.filter((row) => row.next === null)).toHaveLength(1);
  });

  it('derives the next actions of the wire, in their order', () => {
    expect(GATE_NEXT_ACTIONS).toEqual(['correct', 'run_secops', 'done', 'blocked', 'parked']);
  });

  it('after an approval runs the next gate, and is done after the last', () => {
    expect(nextActionOnApproval('qa')).toBe('run_secops');
    expect(nextActionOnApproval('secops')).toBe('done');
  });
});

describe('the words of the lists people read (issue #30)', () => {
  const words = {
    gates: [GATES, GATE_NAMES],
    authors: [QUESTION_AUTHORS, QUESTION_AUTHOR_NAMES],
    channels: [NOTIFICATION_CHANNELS, NOTIFICATION_CHANNEL_NAMES],
    roles: [PROJECT_ROLES, Object.fromEntries(PROJECT_ROLES.map((r) => [r, PROJECT_ROLE_NAMES[r].name]))],
    rolesWithArticle: [
      PROJECT_ROLES,
      Object.fromEntries(PROJECT_ROLES.map((r) => [r, PROJECT_ROLE_NAMES[r].withArticle])),
    ],
  } as const;

  it.each(Object.entries(words))('name every one of the %s in every language', (_name, [list, names]) => {
    expect(Object.keys(names).sort()).toEqual([...list].sort());
    for (const value of list)
      for (const language of LANGUAGES) {
        const word = (names as Record<string, Record<string, string>>)[value]![language]!;
        expect(word.trim()).not.toBe('');
      }
  });

  it('say the gates and roles in Portuguese in pt-BR', () => {
    for (const gate of GATES) expect(GATE_NAMES[gate]['pt-BR']).not.toBe(GATE_NAMES[gate].en);
    for (const role of PROJECT_ROLES)
      expect(PROJECT_ROLE_NAMES[role].name['pt-BR']).not.toBe(PROJECT_ROLE_NAMES[role].name.en);
  });
});
