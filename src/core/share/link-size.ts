// How big a share link is and whether it will survive being opened and pasted. Limits chosen
// (docs/share-format.md): browsers — Chromium caps URLs at 2 MiB (2,097,152 characters) and
// Firefox at 1 MiB (network.standard-url.max-length); we use the smaller, 1 MiB, for the whole
// URL. Chat apps, issue trackers and mail clients cut or refuse long messages well before that;
// above 32 KiB we warn that the link may not survive being pasted and suggest a bundle.

/** Longest URL (origin + path + fragment) every supported browser opens: 1 MiB. */
export const BROWSER_URL_LIMIT = 1024 * 1024;
/** Above this many characters a link may be cut by chat apps and issue trackers: 32 KiB. */
export const LINK_WARN_CHARS = 32 * 1024;

type LinkSizeLevel = "ok" | "long" | "too-long";

export interface LinkSizeInfo {
  /** Characters of the fragment (including `#`). */
  fragmentChars: number;
  /** Characters of the whole URL: `pageUrlChars` + fragment. */
  urlChars: number;
  level: LinkSizeLevel;
  /** True when browsers would refuse the URL: offer a reproduction bundle instead. */
  exceedsBrowserLimit: boolean;
  /** True when the link may be cut when pasted into chat apps (level "long" or worse). */
  exceedsWarnThreshold: boolean;
  browserLimit: number;
  warnThreshold: number;
  /** One sentence for the UI. */
  message: string;
}

export interface LinkSizeOptions {
  /** Length of the page URL the fragment is appended to (origin and path), 0 by default. */
  pageUrlChars?: number;
  browserLimit?: number;
  warnThreshold?: number;
}

function formatSize(chars: number): string {
  if (chars < 1024) return `${chars} characters`;
  if (chars < 1024 * 1024) return `${(chars / 1024).toFixed(1)} KiB`;
  return `${(chars / (1024 * 1024)).toFixed(2)} MiB`;
}

export function linkSizeInfo(fragment: string, options: LinkSizeOptions = {}): LinkSizeInfo {
  const browserLimit = options.browserLimit ?? BROWSER_URL_LIMIT;
  const warnThreshold = options.warnThreshold ?? LINK_WARN_CHARS;
  const fragmentChars = fragment.length;
  const urlChars = fragmentChars + (options.pageUrlChars ?? 0);
  const exceedsBrowserLimit = urlChars > browserLimit;
  const exceedsWarnThreshold = urlChars > warnThreshold;
  const level: LinkSizeLevel = exceedsBrowserLimit ? "too-long" : exceedsWarnThreshold ? "long" : "ok";
  const size = formatSize(urlChars);
  const message =
    level === "too-long"
      ? `The link is ${size}, more than browsers accept (${formatSize(browserLimit)}): download a reproduction bundle instead.`
      : level === "long"
        ? `The link is ${size}: it opens in browsers, but chat apps and issue trackers may cut it; a reproduction bundle is safer.`
        : `The link is ${size}.`;
  return { fragmentChars, urlChars, level, exceedsBrowserLimit, exceedsWarnThreshold, browserLimit, warnThreshold, message };
}
