// GetLightdInfo from getinfo and getblockchaininfo (zebra-jsonrpc.md §4.2,
// lightwallet-protocol.md §3.3): the fields a node can vouch for. The server's own
// identity (vendor, version, git/build fields, donation address) is not the node's to
// know; those are derived empty and listed in UNDERIVABLE.

import { create } from "@bufbuild/protobuf";
import { LightdInfoSchema } from "../gen/walletrpc/service_pb.js";
import { BRANCH_IDS, branchIdHex } from "../codec/index.js";
import type { Derivation } from "./context.js";
import { field, obj, optionalUint, str, uint } from "./node.js";

/** The protocol version a spec-correct server reports (the reference follows v0.5.0). */
export const LIGHTWALLET_PROTOCOL_VERSION = "v0.5.0";

const SAPLING_BRANCH = branchIdHex(BRANCH_IDS.sapling); // "76b809bb"

interface Upgrade {
  name: string;
  height: number;
  pending: boolean;
}

function upgradesOf(info: Record<string, unknown>): Map<string, Upgrade> {
  const what = "getblockchaininfo.upgrades";
  const raw = info.upgrades === undefined || info.upgrades === null ? {} : obj(info.upgrades, what);
  const out = new Map<string, Upgrade>();
  for (const [branch, v] of Object.entries(raw)) {
    const u = obj(v, `${what}.${branch}`);
    out.set(branch, {
      name: str(field(u, "name", `${what}.${branch}`)),
      height: uint(field(u, "activationheight", `${what}.${branch}`)),
      pending: str(field(u, "status", `${what}.${branch}`)) === "pending",
    });
  }
  return out;
}

/** The pending upgrade with the lowest activation height (lightwalletd's choice). */
function nextUpgrade(upgrades: Map<string, Upgrade>): Upgrade | undefined {
  let next: Upgrade | undefined;
  for (const u of upgrades.values()) if (u.pending && (next === undefined || u.height < next.height)) next = u;
  return next;
}

export async function getLightdInfo(d: Derivation): Promise<void> {
  const [infoRaw, chainRaw] = await Promise.all([d.node.call("getinfo"), d.node.call("getblockchaininfo")]);
  const info = obj(infoRaw, "getinfo");
  const chain = obj(chainRaw, "getblockchaininfo");
  const w = "getblockchaininfo";
  const upgrades = upgradesOf(chain);
  const next = nextUpgrade(upgrades);
  const consensus = obj(field(chain, "consensus", w).v, `${w}.consensus`);
  d.emit(
    LightdInfoSchema,
    create(LightdInfoSchema, {
      // version, vendor, gitCommit, branch, buildDate, buildUser, donationAddress: UNDERIVABLE.
      taddrSupport: true,
      chainName: str(field(chain, "chain", w)),
      saplingActivationHeight: BigInt(upgrades.get(SAPLING_BRANCH)?.height ?? 0),
      consensusBranchId: str(field(consensus, "chaintip", `${w}.consensus`)),
      blockHeight: BigInt(uint(field(chain, "blocks", w))),
      estimatedHeight: BigInt(optionalUint(field(chain, "estimatedheight", w)) ?? 0),
      zcashdBuild: str(field(info, "build", "getinfo")),
      zcashdSubversion: str(field(info, "subversion", "getinfo")),
      upgradeName: next?.name ?? "",
      upgradeHeight: BigInt(next?.height ?? 0),
      lightwalletProtocolVersion: LIGHTWALLET_PROTOCOL_VERSION,
    }),
  );
}
