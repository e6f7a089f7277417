import { describe, expect, test } from "@jest/globals";
import { releaseVersion, resolveVersion } from "./identity.js";

describe("a build's version", () => {
  test("release strings as servers report them are versions", () => {
    expect(releaseVersion("v0.5.4")).toBe("v0.5.4");
    expect(releaseVersion("0.10.1")).toBe("0.10.1");
    expect(releaseVersion("v7.0.0")).toBe("v7.0.0");
    expect(releaseVersion("1.0.0-rc.1")).toBe("1.0.0-rc.1");
  });

  test("development and unreadable strings name no release", () => {
    // lightwalletd's common.Version without its Makefile's -ldflags.
    expect(releaseVersion("v0.0.0.0-dev")).toBeUndefined();
    expect(releaseVersion("0.0.0")).toBeUndefined();
    expect(releaseVersion("0.6.0-dev")).toBeUndefined();
    expect(releaseVersion("HEAD 1c9b245")).toBeUndefined();
    expect(releaseVersion("")).toBeUndefined();
  });

  test("the config's version wins, then the server's release, else it is unknown with what was reported", () => {
    expect(resolveVersion("0.5.3", "v0.5.4")).toEqual({ version: "0.5.3", source: "config" });
    expect(resolveVersion(undefined, "v0.5.4")).toEqual({ version: "v0.5.4", source: "server" });
    expect(resolveVersion(undefined, "v0.0.0.0-dev")).toEqual({ source: "unknown", reported: "v0.0.0.0-dev" });
    expect(resolveVersion(undefined, undefined)).toEqual({ source: "unknown" });
  });
});
