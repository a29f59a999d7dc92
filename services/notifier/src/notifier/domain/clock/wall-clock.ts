/** `at` on a wall clock, in a locale's words: `Wed 2 Dec, 17:00 (America/Sao_Paulo)` in en-GB. */
export function wallClockText(at: Date, timeZone: string, locale: string): string {
  const local = new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return `${local} (${timeZone})`;
}
