// Journey: the layout of every agent's shared files at a laptop (1024×700) and a desktop (1440×900)
// window. Nothing that carries text is cut without a title holding its whole text; the top bar's
// buttons never overlap; the simulator's tables scroll rather than being cut; the cost panel
// closes with Escape and gives focus back to the button that opened it, the tabs usable while it
// is open; the error banner's Dismiss is visible and reachable by keyboard; the Open file picker
// accepts every name the intake reads. Screenshots go to /tmp/layout-*.png.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { AGENTS, agentFilePath } from "./agentFiles";
import { dropFiles, expect, openEmptyApp, sharedFixturePath, test, waitForSession, type DroppedFile } from "./support";

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
];

const GEMINI = "gemini-cli/p-resume-autocompress/session";
const GEMINI_CHAT = "tmp/lighthouse-notes/chats/session-2026-12-03T09-09-04c32c61.jsonl";

/** Gemini CLI's chat with the files the CLI keeps beside it (projects.json, logs.json). */
function geminiWithSideFiles(): DroppedFile[] {
  return [
    { name: path.basename(GEMINI_CHAT), text: readFileSync(sharedFixturePath(GEMINI, GEMINI_CHAT), "utf8") },
    { name: "projects.json", text: readFileSync(sharedFixturePath(GEMINI, "projects.json"), "utf8") },
    {
      name: "logs.json",
      text: JSON.stringify([{ sessionId: "04c32c61-7e8e-478b-830c-627e8c677e94", messageId: 0, type: "user", message: "Read the notes", timestamp: "2026-12-03T09:09:20.000Z" }]),
    },
  ];
}

const CASES: { agent: string; files: () => DroppedFile[] }[] = [
  ...AGENTS.map((agent) => ({
    agent: agent.agent,
    files: () => agent.files.map((file) => ({ name: path.basename(file), base64: readFileSync(agentFilePath(file)).toString("base64") })),
  })),
  { agent: "Gemini CLI with side files", files: geminiWithSideFiles },
];

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

/** Elements whose own text is cut by their box (overflow hidden or an ellipsis) with no title holding that text. */
async function cutTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const element of Array.from(document.querySelectorAll<HTMLElement>("body *"))) {
      if (element.closest(".monaco-editor, svg, [aria-hidden='true']")) continue;
      const own = Array.from(element.childNodes)
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? "")
        .join("")
        .trim();
      if (own === "") continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(element);
      if (style.visibility === "hidden") continue;
      const clips = style.overflowX === "hidden" || style.overflowX === "clip" || style.textOverflow === "ellipsis";
      if (!clips || element.scrollWidth <= element.clientWidth + 1) continue;
      const whole = (element.textContent ?? "").trim();
      const titled = element.closest<HTMLElement>("[title]");
      if (titled && titled.title.toLowerCase().includes(whole.toLowerCase())) continue;
      found.push(`${element.tagName.toLowerCase()}.${element.className}: "${whole.slice(0, 60)}" (${element.clientWidth}px of ${element.scrollWidth}px)`);
    }
    return found;
  });
}

/** Pairs of the top bar's controls whose boxes overlap. */
async function overlappingControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const controls = Array.from(document.querySelectorAll<HTMLElement>(".topbar button, .topbar select, .topbar .chip, .topbar .file-name, .topbar .entries"))
      .filter((element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== "hidden")
      .map((element) => ({ name: element.dataset.testid ?? element.textContent?.trim().slice(0, 30) ?? element.tagName, box: element.getBoundingClientRect() }))
      .filter((control) => control.box.width > 0);
    const found: string[] = [];
    for (let i = 0; i < controls.length; i++) {
      for (let j = i + 1; j < controls.length; j++) {
        const a = controls[i]!.box;
        const b = controls[j]!.box;
        const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
        if (overlap) found.push(`${controls[i]!.name} / ${controls[j]!.name}`);
      }
    }
    return found;
  });
}

/** The top bar's first row: how many of its controls (buttons, the file name, the format label) sit on each of its lines, top to bottom. */
async function topRowLines(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const row = document.querySelector<HTMLElement>(".topbar-row")!;
    const lines = new Map<number, number>();
    for (const control of Array.from(row.querySelectorAll<HTMLElement>("button, .file-name, .chip"))) {
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // Controls on one line are centred on it; their middles differ by far less than a line.
      const middle = box.top + box.height / 2;
      const line = [...lines.keys()].find((other) => Math.abs(other - middle) < 10) ?? middle;
      lines.set(line, (lines.get(line) ?? 0) + 1);
    }
    return [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, count]) => count);
  });
}

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize(size);
    });

    for (const item of CASES) {
      test(`${item.agent}: no text cut without its title, no overlapping controls`, async ({ page }) => {
        await openEmptyApp(page);
        await dropFiles(page, item.files());
        await waitForSession(page);
        await expect(page.getByTestId("session-cost")).toBeVisible();
        await page.screenshot({ path: `/tmp/layout-${size.width}-${slug(item.agent)}.png` });
        // The format label names the agent and its version in full, in its text or its title.
        const label = page.getByTestId("format-label");
        const title = (await label.getAttribute("title")) ?? "";
        expect(title).not.toMatch(/unknown/i);
        expect(title).toContain((await label.textContent())!.trim());
        expect(await overlappingControls(page)).toEqual([]);
        expect(await cutTexts(page)).toEqual([]);
        // The file name gives way before the row breaks: one line on a desktop window, and never a
        // control left alone on a line of its own.
        const lines = await topRowLines(page);
        if (size.width >= 1440) expect(lines).toHaveLength(1);
        expect(lines.filter((count) => count < 2)).toEqual([]);
      });
    }

    test("the simulator's tables scroll sideways rather than being cut", async ({ page }) => {
      test.setTimeout(120_000);
      await openEmptyApp(page);
      await dropFiles(page, CASES.find((item) => item.agent === "Codex")!.files());
      await waitForSession(page);
      await page.getByTestId("simulate-button").click();
      const panel = page.getByTestId("simulator-panel");
      await expect(panel.locator(".sim-table").first()).toBeVisible({ timeout: 60_000 });
      const cut = await panel.evaluate((root) =>
        Array.from(root.querySelectorAll<HTMLElement>(".sim-table")).flatMap((table) => {
          const tableBox = table.getBoundingClientRect();
          // The nearest box that clips it: the table's right edge is inside it, or that box scrolls.
          let clip = table.parentElement;
          while (clip && getComputedStyle(clip).overflowX === "visible") clip = clip.parentElement;
          if (!clip) return [];
          const clipBox = clip.getBoundingClientRect();
          const scrolls = ["auto", "scroll"].includes(getComputedStyle(clip).overflowX);
          return tableBox.right <= clipBox.right + 1 || scrolls ? [] : [`${table.dataset.testid ?? "sim-table"}: ${Math.round(tableBox.right - clipBox.right)}px cut`];
        }),
      );
      expect(cut).toEqual([]);
      expect(await cutTexts(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/layout-${size.width}-simulator.png` });
    });

    test("the cost panel closes with Escape, focus goes back to its button, and the tabs stay usable", async ({ page }) => {
      await openEmptyApp(page);
      await dropFiles(page, CASES.find((item) => item.agent === "Claude Code")!.files());
      await waitForSession(page);
      const button = page.getByTestId("session-cost");
      await button.click();
      const panel = page.getByTestId("prices-panel");
      await expect(panel).toBeVisible();
      await page.screenshot({ path: `/tmp/layout-${size.width}-cost-panel.png` });
      // A tab is usable while the panel is open: nothing covers it.
      const tab = page.getByRole("tab").nth(1);
      await tab.click({ timeout: 5_000 });
      await expect(tab).toHaveAttribute("aria-selected", "true");
      await expect(panel).toBeVisible();
      await panel.getByRole("button", { name: "Close" }).focus();
      await page.keyboard.press("Escape");
      await expect(panel).toBeHidden();
      await expect(button).toBeFocused();
    });

    test("the Export panel opens wholly inside the window, and after the window shrinks", async ({ page }) => {
      await openEmptyApp(page);
      await dropFiles(page, CASES.find((item) => item.agent === "Claude Code")!.files());
      await waitForSession(page);
      await page.getByTestId("export-button").click();
      const panel = page.getByTestId("export-panel");
      await expect(panel).toBeVisible();
      const inside = async () => {
        const box = (await panel.boundingBox())!;
        const width = page.viewportSize()!.width;
        return box.x >= 0 && box.x + box.width <= width;
      };
      await expect.poll(inside).toBe(true);
      await page.screenshot({ path: `/tmp/layout-${size.width}-export-panel.png` });
      await page.setViewportSize({ width: 1024, height: 700 });
      await expect.poll(inside).toBe(true);
      await page.keyboard.press("Escape");
      await expect(panel).toBeHidden();
    });

    test("the error banner's Dismiss is visible and reachable by keyboard", async ({ page }) => {
      await openEmptyApp(page);
      await dropFiles(page, [{ name: "broken.jsonl", text: "this is not a session\nnor is this\n" }]);
      const banner = page.getByTestId("error-banner");
      await expect(banner).toBeVisible();
      const dismiss = banner.getByRole("button", { name: "Dismiss error" });
      await expect(dismiss).toBeVisible();
      // Visible: its text stands out from the banner (contrast ratio of at least 4.5).
      const contrast = await dismiss.evaluate((element) => {
        const rgb = (value: string) => (value.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
        const luminance = ([r, g, b]: number[]) => {
          const channel = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
          return 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);
        };
        let back: Element | null = element;
        while (back && /rgba\(.*, 0\)|transparent/.test(getComputedStyle(back).backgroundColor)) back = back.parentElement;
        const a = luminance(rgb(getComputedStyle(element).color));
        const b = luminance(rgb(getComputedStyle(back ?? document.body).backgroundColor));
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      });
      expect(contrast).toBeGreaterThanOrEqual(4.5);
      await page.screenshot({ path: `/tmp/layout-${size.width}-error-banner.png` });
      // Reachable with Tab from the top of the page, and Enter dismisses.
      await page.locator("body").focus();
      let reached = false;
      for (let step = 0; step < 40 && !reached; step++) {
        await page.keyboard.press("Tab");
        reached = await dismiss.evaluate((element) => element === document.activeElement);
      }
      expect(reached).toBe(true);
      const outline = await dismiss.evaluate((element) => getComputedStyle(element).outlineStyle);
      expect(outline).not.toBe("none");
      await page.keyboard.press("Enter");
      await expect(banner).toBeHidden();
    });

    test("the Open file picker accepts every name the intake reads", async ({ page }) => {
      await openEmptyApp(page);
      const accept = ((await page.getByTestId("open-file-input").getAttribute("accept")) ?? "").split(",");
      for (const extension of [".jsonl", ".json", ".zstd", ".zst", ".gz", ".db", ".db-wal", ".sqlite"]) expect(accept).toContain(extension);
    });
  });
}
