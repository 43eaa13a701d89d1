// Size limits of the request view, shared by the editor and the UI that explains them.

/** Above this many characters the editor turns word wrap off: wrapping every line of a
 *  multi-megabyte request costs seconds on each turn change. */
export const LARGE_TEXT = 4_000_000;
