// Builds fake secrets at run time (deterministic pseudo-random characters), so that no file of
// the repository contains a literal that secret scanners would flag.

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** `length` characters from `alphabet`, deterministic for a seed; always mixes letters and digits when the alphabet has both. */
export function fake(length: number, alphabet = ALNUM, seed = 7): string {
  let state = seed >>> 0 || 1;
  let out = "";
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out += alphabet.charAt((state >>> 8) % alphabet.length);
  }
  // Guarantee a digit and a letter where the alphabet allows, at fixed places.
  if (length >= 4 && /[0-9]/.test(alphabet) && /[A-Za-z]/.test(alphabet)) {
    const digit = alphabet.match(/[0-9]/)?.[0] ?? "7";
    const letter = alphabet.match(/[A-Za-z]/)?.[0] ?? "a";
    out = letter + out.slice(1, length - 1) + digit;
  }
  return out;
}

export const HEX = "0123456789abcdef";
export const UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const URLSAFE = `${ALNUM}_-`;
export const B64 = `${ALNUM}+/`;
