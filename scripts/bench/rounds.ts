/**
 * The sides of alternating rounds, in the order of round `round`: every side runs once a round, each
 * round starting one further along, so a drift of the machine during the comparison falls on every
 * side alike (report_score's variants, the ties' comparisons).
 */
export function sidesInTurn<T>(sides: T[], round: number): T[] {
  const start = round % sides.length;
  return [...sides.slice(start), ...sides.slice(0, start)];
}
