// The name the compiled bin goes by (package.json `bin`), used in its usage texts.
export const BIN_PROGRAM = "contextscope";
