// A throwaway self-signed certificate for localhost and 127.0.0.1, made with the openssl
// CLI, for the tests that need a TLS server.

import { execFileSync } from "node:child_process";
import { join } from "node:path";

export function haveOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Writes key.pem and cert.pem into `dir`; the certificate is its own CA. */
export function selfSignedCert(dir: string): { keyFile: string; certFile: string } {
  const keyFile = join(dir, "key.pem");
  const certFile = join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  return { keyFile, certFile };
}
