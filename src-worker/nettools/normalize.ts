/**
 * What differs between two runs of the same curl/wget command line for
 * reasons that are not behaviour: clock times, dates, transfer rates,
 * elapsed milliseconds, and the progress displays (curl's meter, which
 * the host prints to any stderr and we print only to a terminal; wget's
 * dot lines, whose spacing follows the rate).
 */
export function normalizeStderr(text: string): string {
  return (
    text
      // curl's progress meter: the two header lines and \r-separated updates.
      .replace(/ {2}% Total {4}% Received % Xferd.*\n.*Dload {2}Upload.*\n/g, '')
      .replace(/(\r[ \d.kMG%]+(?:[-\d:]+ ?){3}[ \d.kMG]+)+\n?/g, '')
      .replace(/^\s*\d+ +\d+ +\d+ +\d+ .*--:--:--.*\n?/gm, '')
      // Dates and times.
      .replace(/--\d{4}-\d\d-\d\d \d\d:\d\d:\d\d--/g, '--DATE--')
      .replace(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d /gm, 'DATE ')
      .replace(/after \d+ ms/g, 'after N ms')
      .replace(/after \d+ milliseconds/g, 'after N milliseconds')
      // wget: rates, the dot display, wall clock totals.
      .replace(/\([\d.]+ [KMG]?B\/s\)/g, '(RATE)')
      // (a rate under 1 KB/s ends in a space: `117 =0.09s`)
      .replace(/^ *\d+K[ .,]*(?: +\d+%)?(?: +[\d.]+[KMG ]?)?(?: ?=?[\d.]+s)?\s*$/gm, 'DOTS')
      .replace(/(DOTS\n)+/g, 'DOTS\n')
      .replace(/Total wall clock time: .*/g, 'Total wall clock time: T')
      .replace(/Downloaded: (\d+) files, (\S+) in \S+ \(RATE\)/g, 'Downloaded: $1 files, $2')
  );
}
