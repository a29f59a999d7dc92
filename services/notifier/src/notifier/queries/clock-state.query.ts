import type { DataSource } from 'typeorm';
import type { ClockStateReply, UserScopedCommand } from '@openq/contracts';
import { overdueState } from '../clock-schedule';
import { clockPolicyView, noticesOf, openClockQuestions, workingTimesOf } from '../store/clock.store';

/**
 * Where each open question of the project stands on its clock (the inbox's markers: on time,
 * due soon, overdue), with the notices given so far. Any member sees who is late. `now`: the
 * notifier's clock (tests drive it).
 */
export async function clockStateQuery(
  ds: DataSource,
  now: () => Date,
  cmd: UserScopedCommand,
): Promise<ClockStateReply> {
  // A read the inbox repeats every minute: it records no member (the channel routes do).
  const m = ds.manager;
  const rows = await openClockQuestions(m, cmd.projectId);
  if (rows.length === 0) {
    const { policy } = await clockPolicyView(m, cmd.projectId);
    return { projectId: cmd.projectId, clock: policy !== null, items: [] };
  }
  const workingTimeOf = await workingTimesOf(
    m,
    rows.map((r) => r.session_author_id),
  );
  const notices = await noticesOf(
    m,
    rows.map((r) => r.question_id),
  );
  const at = now();
  const items = rows.flatMap((r) => {
    const marker = overdueState(
      {
        questionId: r.question_id,
        declaredAt: new Date(r.declared_at),
        authorId: r.session_author_id,
        status: 'open',
      },
      r.policy,
      workingTimeOf(r.session_author_id),
      at,
    );
    return marker
      ? [
          {
            questionId: r.question_id,
            authorId: r.session_author_id,
            state: marker.state,
            dueAt: marker.dueAt.toISOString(),
            notices: notices.get(r.question_id) ?? [],
          },
        ]
      : [];
  });
  return { projectId: cmd.projectId, clock: true, items };
}
