import { ClockReason, isId, isRefusal, refusal, type Refusal } from '@openq/contracts';

/**
 * A span of BUSINESS time of the person the clock runs for: `{ hours: 8 }` is "8 business hours",
 * the time their own clock spends inside their working window. There are no days: a working day's
 * length is each person's own.
 */
export interface Duration {
  hours?: number;
  minutes?: number;
}

/**
 * A project's clock for its open questions, all spans counted from the declaration in the
 * author's business time: remind the author at each of `reminders`, tell them the question is due
 * at `dueAfter`, and at `escalateAfter` tell `escalateTo` (named users, or the project's
 * maintainers) who is late. Nothing here ever answers.
 */
export interface ClockPolicy {
  dueAfter: Duration;
  reminders: Duration[];
  escalateAfter?: Duration;
  escalateTo: { users: string[] } | 'maintainers';
}

export const MAX_REMINDERS = 10;
export const MAX_ESCALATION_USERS = 50;
/** 1,000 business hours: about half a year of 8-hour days. */
export const MAX_DURATION_MINUTES = 60_000;

export function durationMinutes(duration: Duration): number {
  return (duration.hours ?? 0) * 60 + (duration.minutes ?? 0);
}

function invalid(field: string, message: string): Refusal {
  return refusal(400, ClockReason.invalidPolicy, message, { field });
}

function parseDuration(value: unknown, field: string): Duration | Refusal {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalid(field, `${field} must be { hours?, minutes? }`);
  }
  const raw = value as Record<string, unknown>;
  const extra = Object.keys(raw).find((key) => key !== 'hours' && key !== 'minutes');
  if (extra !== undefined) return invalid(`${field}.${extra}`, `unknown field ${field}.${extra}`);
  const duration: Duration = {};
  for (const unit of ['hours', 'minutes'] as const) {
    const amount = raw[unit];
    if (amount === undefined) continue;
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 0) {
      return invalid(`${field}.${unit}`, `${field}.${unit} must be a whole number, 0 or more`);
    }
    duration[unit] = amount;
  }
  const minutes = durationMinutes(duration);
  if (minutes <= 0) return invalid(field, `${field} must be longer than zero`);
  if (minutes > MAX_DURATION_MINUTES) {
    return invalid(field, `${field} must be at most ${MAX_DURATION_MINUTES / 60} business hours`);
  }
  return duration;
}

const KEYS = new Set(['dueAfter', 'reminders', 'escalateAfter', 'escalateTo']);

/**
 * A project's clock policy from its JSON. Refusals (each with `details.field`):
 * `politica_invalida` (shape, units, limits, unknown fields), `lembretes_fora_de_ordem` (each
 * reminder must come strictly after the previous one), `lembrete_no_prazo` (a reminder at the due
 * time would say the same thing twice), `escalonamento_antes_do_prazo` (nobody is late before the
 * due time), `escalonamento_antes_de_lembrete` (the author is reminded before anyone else is told).
 */
export function parseClockPolicy(input: unknown): ClockPolicy | Refusal {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return invalid('', 'the clock policy must be an object');
  }
  const raw = input as Record<string, unknown>;
  const unknownKey = Object.keys(raw).find((key) => !KEYS.has(key));
  if (unknownKey !== undefined) return invalid(unknownKey, `unknown field ${unknownKey}`);

  if (raw['dueAfter'] === undefined) return invalid('dueAfter', 'dueAfter is required');
  const dueAfter = parseDuration(raw['dueAfter'], 'dueAfter');
  if (isRefusal(dueAfter)) return dueAfter;
  const due = durationMinutes(dueAfter);

  const rawReminders = raw['reminders'] ?? [];
  if (!Array.isArray(rawReminders)) return invalid('reminders', 'reminders must be a list of durations');
  if (rawReminders.length > MAX_REMINDERS) return invalid('reminders', `at most ${MAX_REMINDERS} reminders`);
  const reminders: Duration[] = [];
  for (const [index, value] of rawReminders.entries()) {
    const field = `reminders[${index}]`;
    const reminder = parseDuration(value, field);
    if (isRefusal(reminder)) return reminder;
    const previous = reminders[index - 1];
    if (previous !== undefined && durationMinutes(reminder) <= durationMinutes(previous)) {
      return refusal(
        400,
        ClockReason.remindersOutOfOrder,
        `${field} must come after reminders[${index - 1}]`,
        {
          field,
        },
      );
    }
    if (durationMinutes(reminder) === due) {
      return refusal(
        400,
        ClockReason.reminderAtDue,
        `${field} falls at the due time, which is notified anyway`,
        {
          field,
        },
      );
    }
    reminders.push(reminder);
  }

  const policy: ClockPolicy = { dueAfter, reminders, escalateTo: 'maintainers' };
  if (raw['escalateAfter'] !== undefined) {
    const escalateAfter = parseDuration(raw['escalateAfter'], 'escalateAfter');
    if (isRefusal(escalateAfter)) return escalateAfter;
    const escalation = durationMinutes(escalateAfter);
    if (escalation < due) {
      return refusal(400, ClockReason.escalationBeforeDue, 'escalateAfter must not come before dueAfter', {
        field: 'escalateAfter',
      });
    }
    const laterReminder = reminders.findIndex((reminder) => durationMinutes(reminder) >= escalation);
    if (laterReminder >= 0) {
      return refusal(
        400,
        ClockReason.escalationBeforeReminder,
        `escalateAfter must come after every reminder (reminders[${laterReminder}] is not before it)`,
        { field: 'escalateAfter' },
      );
    }
    policy.escalateAfter = escalateAfter;
  }

  const escalateTo = raw['escalateTo'];
  if (escalateTo !== undefined && escalateTo !== 'maintainers') {
    if (typeof escalateTo !== 'object' || escalateTo === null || Array.isArray(escalateTo)) {
      return invalid('escalateTo', "escalateTo must be 'maintainers' or { users: [...] }");
    }
    const target = escalateTo as Record<string, unknown>;
    const extra = Object.keys(target).find((key) => key !== 'users');
    if (extra !== undefined) return invalid(`escalateTo.${extra}`, `unknown field escalateTo.${extra}`);
    const users = target['users'];
    if (!Array.isArray(users) || users.length === 0 || users.length > MAX_ESCALATION_USERS) {
      return invalid('escalateTo.users', `escalateTo.users must list 1 to ${MAX_ESCALATION_USERS} user ids`);
    }
    const badUser = users.findIndex((user) => !isId(user));
    if (badUser >= 0) return invalid(`escalateTo.users[${badUser}]`, 'a user id is ^[A-Za-z0-9_-]{1,64}$');
    if (new Set(users).size !== users.length)
      return invalid('escalateTo.users', 'escalateTo.users repeats a user');
    policy.escalateTo = { users: [...(users as string[])] };
  }
  return policy;
}
