// Network parameters: upgrade activation heights, consensus branch ids, address prefixes.
// Heights for mainnet and testnet are Zebra's (zebra-chain parameters/constants.rs, as
// listed in ../shared/chain-data/README.md).

export type NetworkName = "mainnet" | "testnet" | "regtest";

/** Network upgrades in activation order. */
export const UPGRADES = ["overwinter", "sapling", "blossom", "heartwood", "canopy", "nu5", "nu6", "nu6_1", "nu6_2", "nu6_3"] as const;
export type Upgrade = (typeof UPGRADES)[number];

/**
 * Consensus branch ids (ZIP 200), each set by its upgrade's deployment ZIP (NU5: ZIP 252,
 * NU6: ZIP 253, NU6.1: ZIP 255); NU6.2 and NU6.3 as Zebra's getblockchaininfo reports
 * them. network.test.ts checks every one against Zebra's real getblockchaininfo answers
 * in the chain data.
 */
export const BRANCH_IDS: Readonly<Record<Upgrade, number>> = {
  overwinter: 0x5ba81b19,
  sapling: 0x76b809bb,
  blossom: 0x2bb40e60,
  heartwood: 0xf5b9230b,
  canopy: 0xe9ff75a6,
  nu5: 0xc2d6d0b4,
  nu6: 0xc8e71055,
  nu6_1: 0x4dec4df0,
  nu6_2: 0x5437f330,
  nu6_3: 0x37a5165b,
};

/** Display names as zcashd/Zebra print them in getblockchaininfo.upgrades. */
export const UPGRADE_NAMES: Record<Upgrade, string> = {
  overwinter: "Overwinter",
  sapling: "Sapling",
  blossom: "Blossom",
  heartwood: "Heartwood",
  canopy: "Canopy",
  nu5: "NU5",
  nu6: "NU6",
  nu6_1: "NU6.1",
  nu6_2: "NU6.2",
  nu6_3: "NU6.3",
};

export interface NetworkParams {
  name: NetworkName;
  /** The chain name JSON-RPC uses (getblockchaininfo.chain, TreeState.network). */
  rpcName: "main" | "test" | "regtest";
  /** Activation height per upgrade; absent = not scheduled. */
  activationHeights: Partial<Record<Upgrade, number>>;
  /** Two-byte base58check version prefixes of transparent addresses. */
  p2pkhPrefix: Uint8Array;
  p2shPrefix: Uint8Array;
}

const MAIN_P2PKH = Uint8Array.of(0x1c, 0xb8); // "t1"
const MAIN_P2SH = Uint8Array.of(0x1c, 0xbd); // "t3"
const TEST_P2PKH = Uint8Array.of(0x1d, 0x25); // "tm"
const TEST_P2SH = Uint8Array.of(0x1c, 0xba); // "t2"

export const mainnet: NetworkParams = Object.freeze({
  name: "mainnet",
  rpcName: "main",
  activationHeights: Object.freeze({
    overwinter: 347_500,
    sapling: 419_200,
    blossom: 653_600,
    heartwood: 903_000,
    canopy: 1_046_400,
    nu5: 1_687_104,
    nu6: 2_726_400,
    nu6_1: 3_146_400,
    nu6_2: 3_364_600,
    nu6_3: 3_428_143,
  }),
  p2pkhPrefix: MAIN_P2PKH,
  p2shPrefix: MAIN_P2SH,
});

export const testnet: NetworkParams = Object.freeze({
  name: "testnet",
  rpcName: "test",
  activationHeights: Object.freeze({
    overwinter: 207_500,
    sapling: 280_000,
    blossom: 584_000,
    heartwood: 903_800,
    canopy: 1_028_500,
    nu5: 1_842_420,
    nu6: 2_976_000,
    nu6_1: 3_536_500,
    nu6_2: 4_052_000,
    nu6_3: 4_134_000,
  }),
  p2pkhPrefix: TEST_P2PKH,
  p2shPrefix: TEST_P2SH,
});

/**
 * Regtest defaults follow Zebra's convention of activating upgrades at height 1 (height 0
 * is the genesis block): Overwinter through NU6.1 are active from height 1. NU6.2 and
 * NU6.3 are left unscheduled so that a default regtest chain stays within v5
 * transactions (NU6.3 brings v6, which this decoder rejects). zebrad 7.0.0 left to its own
 * defaults activates only Overwinter through Canopy at height 1; NU5 to NU6.1 at height 1
 * need `NU5 = 1`, `NU6 = 1`, `"NU6.1" = 1` under [network.testnet_parameters.activation_heights].
 * Use `regtestWith` for other heights, as a node started with custom activation heights would need.
 */
export const regtest: NetworkParams = regtestWith({
  overwinter: 1,
  sapling: 1,
  blossom: 1,
  heartwood: 1,
  canopy: 1,
  nu5: 1,
  nu6: 1,
  nu6_1: 1,
});

/** A regtest network with the given activation heights (they must not decrease in upgrade order). */
export function regtestWith(activationHeights: Partial<Record<Upgrade, number>>): NetworkParams {
  let last = 0;
  for (const u of UPGRADES) {
    const h = activationHeights[u];
    if (h === undefined) continue;
    if (!Number.isInteger(h) || h < 1) throw new RangeError(`activation height of ${u} must be an integer >= 1, got ${h}`);
    if (h < last) throw new RangeError(`activation height of ${u} (${h}) is below an earlier upgrade's (${last})`);
    last = h;
  }
  return Object.freeze({
    name: "regtest",
    rpcName: "regtest",
    activationHeights: Object.freeze({ ...activationHeights }),
    p2pkhPrefix: TEST_P2PKH,
    p2shPrefix: TEST_P2SH,
  });
}

export const NETWORKS: Readonly<Record<NetworkName, NetworkParams>> = Object.freeze({ mainnet, testnet, regtest });

export function networkByName(name: string): NetworkParams {
  const n = (NETWORKS as Record<string, NetworkParams | undefined>)[name];
  if (!n) throw new Error(`unknown network ${JSON.stringify(name)} (expected mainnet, testnet or regtest)`);
  return n;
}

/** The latest upgrade active at `height`, or undefined before Overwinter. */
export function upgradeAt(network: NetworkParams, height: number): Upgrade | undefined {
  let active: Upgrade | undefined;
  for (const u of UPGRADES) {
    const h = network.activationHeights[u];
    if (h !== undefined && h <= height) active = u;
  }
  return active;
}

/** Consensus branch id at `height` (0 before Overwinter, i.e. Sprout). */
export function branchIdAt(network: NetworkParams, height: number): number {
  const u = upgradeAt(network, height);
  return u === undefined ? 0 : BRANCH_IDS[u];
}

export function isActive(network: NetworkParams, upgrade: Upgrade, height: number): boolean {
  const h = network.activationHeights[upgrade];
  return h !== undefined && h <= height;
}

/** Branch id as the 8-digit hex zcashd prints ("c2d6d0b4"). */
export function branchIdHex(id: number): string {
  return (id >>> 0).toString(16).padStart(8, "0");
}
