// Where a command writes: injected, so tests capture it and the CLI maps it to stdio.
export interface Output {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}
