/**
 * Local time as the process's TZ says, for Emscripten's C library. Its
 * localtime/mktime read the local fields of the realm's `Date`, whose zone
 * would be the host's: here `Date` is replaced by a subclass whose local
 * fields follow a zone table (UTC until `setZone`). The table comes from
 * Python (`time.tzset`, kernelShim.py), which reads it from the bundled
 * tzdata: UTC instants of the transitions and the (offset, isdst, name)
 * each starts. The C library's `tzname`, `timezone` and `daylight` are
 * rewritten too (CPython's %Z and tm_zone read them).
 */

/** A zone as Python hands it over: transitions (UTC seconds) and the type each starts. */
export interface ZoneTable {
  readonly trans: readonly number[];
  readonly idx: readonly number[];
  /** [UTC offset in seconds, isdst (0/1), abbreviation] */
  readonly types: readonly (readonly [number, number, string])[];
  /** The type before the first transition (and with no transitions). */
  readonly before: number;
}

const UTC: ZoneTable = { trans: [], idx: [], types: [[0, 0, 'UTC']], before: 0 };
let zone: ZoneTable = UTC;

function typeAt(utcMs: number): readonly [number, number, string] {
  const s = utcMs / 1000;
  const { trans } = zone;
  let lo = 0;
  let hi = trans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((trans[mid] as number) <= s) lo = mid + 1;
    else hi = mid;
  }
  const t = lo === 0 ? zone.before : (zone.idx[lo - 1] as number);
  return zone.types[t] ?? [0, 0, 'UTC'];
}

/** Local wall-clock fields of a UTC instant, as a Date whose UTC getters read them. */
function wall(utcMs: number): Date {
  return new BaseDate(utcMs + typeAt(utcMs)[0] * 1000);
}

const BaseDate = Date;

/** `Date` whose local getters and local-field constructor follow `zone`. */
class ZonedDate extends BaseDate {
  constructor(...args: unknown[]) {
    if (args.length < 2) {
      super(...(args as []));
      return;
    }
    // Local fields: the instant whose offset makes them (two rounds settle a transition).
    const local = BaseDate.UTC(...(args as [number, number]));
    let utc = local - typeAt(local)[0] * 1000;
    utc = local - typeAt(utc)[0] * 1000;
    super(utc);
  }
  override getFullYear(): number {
    return wall(this.getTime()).getUTCFullYear();
  }
  getYear(): number {
    return this.getFullYear() - 1900;
  }
  override getMonth(): number {
    return wall(this.getTime()).getUTCMonth();
  }
  override getDate(): number {
    return wall(this.getTime()).getUTCDate();
  }
  override getDay(): number {
    return wall(this.getTime()).getUTCDay();
  }
  override getHours(): number {
    return wall(this.getTime()).getUTCHours();
  }
  override getMinutes(): number {
    return wall(this.getTime()).getUTCMinutes();
  }
  override getSeconds(): number {
    return wall(this.getTime()).getUTCSeconds();
  }
  override getTimezoneOffset(): number {
    return -typeAt(this.getTime())[0] / 60;
  }
}

/** Replace the realm's `Date` (before Pyodide loads: Emscripten reads the global at each call). */
export function installZonedDate(g: { Date: DateConstructor }): void {
  g.Date = ZonedDate as unknown as DateConstructor;
}

export interface CTimeGlobals {
  readonly HEAPU8: Uint8Array;
  readonly _tzname?: number;
  readonly _timezone?: number;
  readonly _daylight?: number;
}

/**
 * Use `table` (undefined: UTC) from now on, and set the C library's globals
 * to it as tzset(3) would. Returns CPython's `[timezone, altzone, daylight,
 * stdName, dstName]` (JSON), taken from this year's zone as glibc does.
 */
export function setZone(table: ZoneTable | undefined, c: CTimeGlobals): string {
  zone = table ?? UTC;
  const year = new BaseDate().getUTCFullYear();
  const jan = typeAt(BaseDate.UTC(year, 0, 1));
  const jul = typeAt(BaseDate.UTC(year, 6, 1));
  const [std, dst] = jan[1] && !jul[1] ? [jul, jan] : [jan, jul];
  const daylight = std[1] !== dst[1] || std[0] !== dst[0] ? 1 : 0;
  const altzone = daylight ? -dst[0] : -std[0];
  const dv = new DataView(c.HEAPU8.buffer);
  if (c._tzname !== undefined) {
    [std[2], daylight ? dst[2] : std[2]].forEach((name, i) => {
      const at = dv.getUint32((c._tzname as number) + 4 * i, true);
      // Emscripten's buffers hold 16 characters and a NUL.
      const bytes = new TextEncoder().encode(name).subarray(0, 16);
      c.HEAPU8.set(bytes, at);
      c.HEAPU8[at + bytes.length] = 0;
    });
  }
  if (c._timezone !== undefined) dv.setInt32(c._timezone, -std[0], true);
  if (c._daylight !== undefined) dv.setInt32(c._daylight, daylight, true);
  return JSON.stringify([-std[0], altzone, daylight, std[2], daylight ? dst[2] : std[2]]);
}
