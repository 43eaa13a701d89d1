// Whether a text starts like a reproduction bundle (`{"contextscope":"bundle"`), from its first
// characters only. Apart from the rest of ./bundle.ts so the page's main thread can route a
// dropped file without loading the payload validators (which know the agents' profiles).

const BUNDLE_START = /^\uFEFF?[ \t\r\n]{0,64}\{[ \t\r\n]{0,64}"contextscope"[ \t\r\n]{0,64}:[ \t\r\n]{0,64}"bundle"/;

/** True when the text starts like a bundle (looks at the first 512 characters only). */
export function isBundle(text: string): boolean {
  return BUNDLE_START.test(text.slice(0, 512));
}
