import { Allow } from 'class-validator';

/*
 * [openq] issue #17 the bodies of the clock's routes. Only the top-level fields are checked here
 * (an unknown one is 400 `corpo_invalido`); their shapes are judged once, by the notifier's pure
 * parsers (`parseClockPolicy`, `parseWorkingTime`), which name the field and give the reason
 * (`politica_invalida`, `lembretes_fora_de_ordem`, `horario_invalido`, `fuso_horario_desconhecido`, …).
 */

/** `PUT /projects/:projectId/clock-policy`: durations are business time of the question's author. */
export class ClockPolicyBody {
  /** `{ hours?, minutes? }` after the declaration: the question is due. Required. */
  @Allow()
  dueAfter?: unknown;

  /** Up to 10 durations, each after the one before: remind the author. */
  @Allow()
  reminders?: unknown;

  /** A duration ≥ `dueAfter` and after every reminder: tell `escalateTo` who is late. */
  @Allow()
  escalateAfter?: unknown;

  /** `'maintainers'` (the default) or `{ users: [...] }`. */
  @Allow()
  escalateTo?: unknown;
}

/** `PUT /me/working-time`: each field left out takes its default (Mon–Fri 09:00–18:00 UTC). */
export class WorkingTimeBody {
  /** An IANA time zone, e.g. `America/Sao_Paulo`. */
  @Allow()
  timeZone?: unknown;

  /** ISO weekdays, 1 = Monday … 7 = Sunday. */
  @Allow()
  days?: unknown;

  /** `'HH:MM'` on the person's wall clock. */
  @Allow()
  start?: unknown;

  /** `'HH:MM'`, or `'24:00'`. */
  @Allow()
  end?: unknown;

  /** `{ start, end }` ('HH:MM', may straddle midnight): nobody is told anything then. */
  @Allow()
  quietHours?: unknown;
}
