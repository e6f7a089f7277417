// What a build is, as the ledger sees it: its implementation, the version it runs and the
// node it is backed by. A version comes from the config or, when the config gives none,
// from what the server says of itself; a development string ("v0.0.0.0-dev", what
// lightwalletd reports when built without its release flags) names no release, so the
// version is unknown. Ledger entries match these facts, never a label.

import semver from "semver";

/** A release version, or undefined for a development or unreadable string. */
export function releaseVersion(reported: string | undefined): string | undefined {
  if (reported === undefined) return undefined;
  const v = semver.valid(semver.clean(reported, { loose: false }) ?? "");
  if (v === null) return undefined;
  const parsed = semver.parse(v)!;
  if (parsed.major === 0 && parsed.minor === 0 && parsed.patch === 0) return undefined;
  if (parsed.prerelease.some((p) => typeof p === "string" && /dev|dirty|snapshot/i.test(p))) return undefined;
  return reported;
}

/** Where a build's version came from, and what it is. */
export interface ResolvedVersion {
  version?: string;
  source: "config" | "server" | "unknown";
  /** What the server reported when it was no release (for the one-line notice). */
  reported?: string;
}

/** The config's version wins; else the server's when it names a release; else unknown. */
export function resolveVersion(configured: string | undefined, reported: string | undefined): ResolvedVersion {
  if (configured !== undefined) return { version: configured, source: "config" };
  const release = releaseVersion(reported);
  if (release !== undefined) return { version: release, source: "server" };
  return { source: "unknown", ...(reported !== undefined ? { reported } : {}) };
}
