// What each build of a run is, once its server has spoken: the version (the config's,
// else the release its server reports, else unknown, said in one warning line) and the
// node behind it (the config's, else what the server names). The ledger matches these,
// so a build named by hand and the same server started by zconform get the same verdicts.

import { resolveVersion } from "../ledger/identity.js";
import type { BuildIdentity } from "../ledger/classify.js";
import type { BuildInfo } from "../results/events.js";
import { versionUnknownCondition, type RunCondition } from "../targets/conditions.js";
import type { Build } from "../targets/config.js";
import type { ServerSays } from "./protocol.js";

export interface KnownBuild {
  identity: BuildIdentity;
  /** The fields reports add to the build's description. */
  info: Pick<BuildInfo, "version" | "versionSource" | "node">;
  /** Set when nobody could name the version. */
  condition?: RunCondition;
}

export function knownBuilds(builds: readonly Build[], servers: ReadonlyMap<string, ServerSays> | undefined): Map<string, KnownBuild> {
  return new Map(
    builds.map((b) => {
      const says = servers?.get(b.name);
      const v = resolveVersion(b.version, says?.version);
      const node = b.node ?? says?.node;
      const identity: BuildIdentity = {
        name: b.name,
        implementation: b.implementation,
        ...(v.version !== undefined ? { version: v.version } : {}),
        ...(v.source === "unknown" ? { versionUnknown: true } : {}),
        ...(node ? { node } : {}),
      };
      const info: KnownBuild["info"] = { ...(v.version !== undefined ? { version: v.version } : {}), versionSource: v.source, ...(node ? { node } : {}) };
      return [b.name, { identity, info, ...(v.source === "unknown" ? { condition: versionUnknownCondition(b, v.reported) } : {}) }];
    }),
  );
}
