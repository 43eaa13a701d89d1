// POSIX shell quoting for the curl export: single quotes keep every character literal (`$`,
// backticks, `"`, `\`, newlines); a single quote itself is written as '\'' (close, escaped quote,
// reopen). Works in bash, zsh, dash and sh.

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/** An environment variable name safe to expand inside double quotes. */
export function isEnvVariableName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(name);
}
