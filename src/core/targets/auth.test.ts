import { afterAll, describe, expect, test } from "@jest/globals";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INPUT_LIMITS } from "../io/input-limits.js";
import { sparseFile, tooLarge } from "../io/oversized.test-helper.js";
import { authorizationFor, basicHeader, COOKIE_USER, tryReadCookieToken } from "./auth.js";

describe("cookie files", () => {
  const dir = mkdtempSync(join(tmpdir(), "zconform-auth-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a cookie's token becomes Basic auth as the cookie user", async () => {
    const cookieFile = join(dir, ".cookie");
    writeFileSync(cookieFile, "__cookie__:s3cret\n");
    expect(await authorizationFor({ kind: "cookie", cookieFile })).toBe(basicHeader(COOKIE_USER, "s3cret"));
    expect(tryReadCookieToken(cookieFile)).toBe("s3cret");
  });

  test("a cookie file over the size limit is refused naming the file and the limit, before it is read", async () => {
    const cookieFile = sparseFile(join(dir, "huge.cookie"));
    await expect(authorizationFor({ kind: "cookie", cookieFile })).rejects.toThrow(
      `cannot read cookie file ${cookieFile}: ${tooLarge("the cookie file", INPUT_LIMITS.cookieFileBytes)}`,
    );
    // Secret collection is best effort: no token to mask, since none can be sent either.
    expect(tryReadCookieToken(cookieFile)).toBeUndefined();
  });

  test("a node that restarts writes a new cookie: the next call sends it; a deleted cookie fails the call naming the file", async () => {
    const cookieFile = join(dir, "restarting.cookie");
    writeFileSync(cookieFile, "__cookie__:first");
    expect(await authorizationFor({ kind: "cookie", cookieFile })).toBe(basicHeader(COOKIE_USER, "first"));
    expect(await authorizationFor({ kind: "cookie", cookieFile })).toBe(basicHeader(COOKIE_USER, "first"));
    // Rewritten in place. (Another token of the same length within the same clock tick would
    // keep the stamp; a node's restart takes far longer than a tick.)
    writeFileSync(cookieFile, "__cookie__:second");
    expect(await authorizationFor({ kind: "cookie", cookieFile })).toBe(basicHeader(COOKIE_USER, "second"));
    // Replaced by a rename (another file, same name).
    writeFileSync(`${cookieFile}.new`, "__cookie__:third");
    renameSync(`${cookieFile}.new`, cookieFile);
    expect(await authorizationFor({ kind: "cookie", cookieFile })).toBe(basicHeader(COOKIE_USER, "third"));
    rmSync(cookieFile);
    await expect(authorizationFor({ kind: "cookie", cookieFile })).rejects.toThrow(`cannot read cookie file ${cookieFile}`);
  });
});
