// Protocol versions as builds report them ("v0.4.0", "" when absent) against
// the semver ranges that cases, ledger entries and the oracle's rules are written in.

import semver from "semver";

/** Whether `version` lies in `range`; undefined when the version is unknown or unreadable. */
export function protocolIn(version: string | undefined, range: string): boolean | undefined {
  const v = version ? semver.coerce(version) : null;
  return v === null ? undefined : semver.satisfies(v, range);
}
