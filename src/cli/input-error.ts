// Bad input from the user (a file, an option, a server that is not there): the command
// prints the message and exits 2, never a stack trace.
export class InputError extends Error {}
