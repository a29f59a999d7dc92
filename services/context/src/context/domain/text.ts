/** Text helpers for what the context service renders for agents. */

/** Length in Unicode code points, the unit of every character ceiling here. */
export function charLength(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** One line: whitespace runs (newlines included) become one space, ends trimmed. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** At most `max` code points; a clipped text ends with "…" (counted in `max`). */
export function clip(text: string, max: number): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  if (max <= 0) return '';
  return `${points
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/** "showing N of M": how every cut list in openq declares what it left out. */
export function showingLine(shown: number, total: number): string {
  return `showing ${shown} of ${total}`;
}
