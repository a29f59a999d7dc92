import {
  checkQuestionsActive,
  missingDeliverables,
  questionsActive,
  type PackageTimes,
} from './questions-active';

const Q = '2026-06-17T10:00:00Z';
const NEWER = '2026-06-17T10:00:01Z';
const OLDER = '2026-06-17T09:59:59Z';
const pkg = (
  questions: string | null,
  brd: string | null,
  trz: string | null = NEWER,
  ac: string | null = NEWER,
  tp: string | null = NEWER,
): PackageTimes => ({
  '01-questions.md': questions,
  '01-brd.md': brd,
  '02-trz.md': trz,
  '03-acceptance-criteria.md': ac,
  '04-test-plan.yaml': tp,
});

describe('questions active (SPEC §7)', () => {
  it.each<[string, PackageTimes, boolean]>([
    ['no questions file, full package', pkg(null, NEWER), false],
    ['no questions file, empty package', pkg(null, null, null, null, null), false],
    ['no questions file key at all', { '01-brd.md': NEWER }, false],
    ['questions file, no deliverable', pkg(Q, null, null, null, null), true],
    ['questions file, incomplete package', pkg(Q, NEWER, NEWER, null, NEWER), true],
    [
      'questions file, deliverable key absent',
      { '01-questions.md': Q, '01-brd.md': NEWER, '02-trz.md': NEWER, '03-acceptance-criteria.md': NEWER },
      true,
    ],
    ['every deliverable strictly newer', pkg(Q, NEWER), false],
    ['one deliverable older', pkg(Q, OLDER), true],
    ['one deliverable tied', pkg(Q, Q), true],
    ['a tie written in another offset', pkg(Q, '2026-06-17T12:00:00+02:00'), true],
    [
      'newer by a microsecond (no millisecond rounding)',
      pkg('2026-06-17T10:00:00.123456Z', '2026-06-17T10:00:00.123457Z', NEWER, NEWER, NEWER),
      false,
    ],
    ['tied to the nanosecond', pkg('2026-06-17T10:00:00.123456789Z', '2026-06-17T10:00:00.123456789Z'), true],
  ])('%s → %s', (_name, input, expected) => {
    expect(questionsActive(input)).toBe(expected);
    expect(checkQuestionsActive(input)).toEqual({ active: expected, degraded: false });
  });

  it.each<[string, unknown]>([
    ['null package', null],
    ['an array', [Q]],
    ['a string', 'package'],
    ['an unparseable questions mtime', pkg('yesterday', NEWER)],
    ['an unparseable deliverable mtime', pkg(Q, 'not a date')],
    ['a date without time', pkg(Q, '2026-06-18')],
    ['an impossible date', pkg(Q, '2026-02-30T10:00:00Z')],
    ['a timestamp without zone', pkg(Q, '2026-06-18T10:00:00')],
    ['a numeric mtime', { ...pkg(Q, NEWER), '02-trz.md': 1718618400000 }],
    ['garbage with no questions file', pkg(null, 'garbage')],
  ])('never raises on %s: degraded, not active', (_name, input) => {
    const result = checkQuestionsActive(input);
    expect(result).toMatchObject({ active: false, degraded: true });
    expect(result.degraded && result.error).toEqual(expect.any(String));
  });

  it('the strict predicate does raise (for the wrapper to catch)', () => {
    expect(() => questionsActive(pkg(Q, 'nope'))).toThrow(/01-brd.md/);
  });

  it('lists the missing deliverables; no package means all missing', () => {
    expect(missingDeliverables(pkg(Q, null, NEWER, null))).toEqual([
      '01-brd.md',
      '03-acceptance-criteria.md',
    ]);
    expect(missingDeliverables(null)).toHaveLength(4);
  });
});
