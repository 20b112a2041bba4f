import { parseGoDuration } from './metric';
import { TimeExpr } from './types';

const SUPPORTED =
  'write now() or date("2026-01-02T15:04:05Z"), optionally plus or minus duration("...") terms, e.g. now() - duration("1h")';

const TERM = /^\s*(now\(\s*\)|date\(\s*"([^"]*)"\s*\)|duration\(\s*"([^"]*)"\s*\))\s*/;

/**
 * A time written as Argo writes `prometheus.rangeQuery.start`/`end` (an expr-lang expression Argo's
 * controller evaluates when it measures): one time, `now()` or `date("<RFC 3339>")`, plus or minus
 * `duration("<Go duration>")` terms. Parsed at plan time; the clock is read only when measuring. Pure.
 * Returns the TimeExpr, or why rollgen cannot evaluate it (with what to write instead).
 */
export function parseTimeExpr(text: string): TimeExpr | { error: string } {
  let rest = text;
  let sign = 1;
  let base: TimeExpr['base'] | undefined;
  let offsetSeconds = 0;
  for (;;) {
    const m = TERM.exec(rest);
    if (!m) return { error: `"${text}" is not a time expression rollgen evaluates: ${SUPPORTED}` };
    rest = rest.slice(m[0].length);
    if (m[3] !== undefined) {
      const seconds = parseGoDuration(m[3].replace(/^-/, ''));
      if (seconds === undefined) return { error: `duration("${m[3]}") is not a Go duration such as 30s, 5m or 1h30m` };
      offsetSeconds += sign * (m[3].startsWith('-') ? -seconds : seconds);
    } else {
      if (base !== undefined || sign < 0)
        return { error: `"${text}" ${sign < 0 ? 'subtracts a time' : 'adds two times'}; ${SUPPORTED}` };
      const fixed = m[2] === undefined ? 'now' : rfc3339(m[2]);
      if (fixed === undefined)
        return {
          error: `date("${m[2]}") is not an RFC 3339 time such as 2026-01-02T15:04:05Z (or a date, 2026-01-02)`,
        };
      base = fixed;
    }
    if (rest === '') break;
    if (rest[0] !== '+' && rest[0] !== '-')
      return { error: `"${text}" is not a time expression rollgen evaluates: ${SUPPORTED}` };
    sign = rest[0] === '+' ? 1 : -1;
    rest = rest.slice(1);
  }
  if (base === undefined) return { error: `"${text}" is a duration, not a time; ${SUPPORTED}` };
  return { base, offsetSeconds };
}

/** The instant `t` names (ms since the epoch) when the clock reads `now`. */
export function timeAt(t: TimeExpr, now: Date): number {
  return (t.base === 'now' ? now.getTime() : t.base) + t.offsetSeconds * 1000;
}

/** RFC 3339, or a date alone (midnight UTC, as expr-lang's date() reads it). */
function rfc3339(text: string): number | undefined {
  if (!/^\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d))?$/.test(text)) return undefined;
  const ms = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls 2026-02-30 over to March 2: the day must exist in its month, as Go's parser requires.
  const [year, month, day] = text.slice(0, 10).split('-').map(Number);
  return day <= daysIn(year, month) ? ms : undefined;
}

/** Days in `month` (1-12) of `year`, on the proleptic Gregorian calendar Go and JavaScript use. */
function daysIn(year: number, month: number): number {
  if (month !== 2) return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}
