/** `root` is the package's folder; false when dist/ is missing or older than a source. */
export function distIsCurrent(root: string): boolean;
