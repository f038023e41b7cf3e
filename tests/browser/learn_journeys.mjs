// The /learn page's journeys in Debian's headless Chromium, driven by playwright-core (npm).
// Run by tests/browser/test_learn_chromium.py:
//   node tests/browser/learn_journeys.mjs BASE_URL ARTEFACT_DIR CHROMIUM_PATH
// Prints one JSON object (what each journey saw) for the Python test to assert on; screenshots
// go to ARTEFACT_DIR.
import { chromium } from "playwright-core";

const [base, artefacts, executablePath] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath,
  args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
});
const problems = [];
const refusals = [];
const out = { problems, refusals };

async function open(path, width = 375, height = 900) {
  const page = await browser.newPage({ viewport: { width, height } });
  page.on("console", (m) => {
    if (m.type() !== "error" && m.type() !== "warning") return;
    const where = m.location().url ?? "";
    // A refused /v1 request is logged by Chromium itself; the page shows it in words (journey 6).
    if (m.text().startsWith("Failed to load resource") && where.includes("/v1/")) refusals.push(`${path}: ${where}`);
    else problems.push(`${path}: ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`${path}: pageerror: ${e.message}`));
  page.on("response", (r) => { if (r.status() >= 400 && !r.url().includes("/v1/")) problems.push(`${path}: ${r.status()} ${r.url()}`); });
  await page.goto(base + path);
  await page.waitForSelector("body[data-ready=true]", { timeout: 15000 });
  return page;
}

const cards = (page, zone) => page.locator(`${zone} [data-card]`).evaluateAll((n) => n.map((x) => x.dataset.card));
const shot = (page, name) => page.screenshot({ path: `${artefacts}/${name}.png`, fullPage: true });

async function journey(name, work) {
  try {
    out[name] = await work();
  } catch (error) {
    out[name] = { error: String(error && error.stack || error) };
  }
}

// 1. A seeded Game Flip Flop hand, a wrong meld built by dragging, Check, the rule's text.
await journey("gff_check", async () => {
  // Tall enough that the drop zones stay on screen while a card is dragged (no autoscroll).
  const page = await open("/learn/?game=game-flip-flop&seed=7&players=3", 375, 2400);
  const dealt = await cards(page, "#hand");
  // The first card dropped on the empty zone starts meld 1; the next two join it.
  await page.locator(`#hand [data-card="${dealt[0]}"]`).dragTo(page.locator('[data-zone="new"]'));
  for (const code of dealt.slice(1, 3)) {
    await page.locator(`#hand [data-card="${code}"]`).dragTo(page.locator('[data-zone="0"]'));
  }
  const meld = await cards(page, '[data-zone="0"]');
  await page.click("#check");
  await page.waitForSelector(".verdicts li");
  const verdict = await page.locator(".verdicts li").first().innerText();
  const valid = await page.locator(".verdicts li").first().getAttribute("data-valid");
  const rule = await page.locator(".verdicts li .rule-link").first().getAttribute("data-rule");
  await page.locator("#hand-area").evaluate((n) => n.scrollIntoView());
  await page.setViewportSize({ width: 375, height: 1300 });
  await page.locator("#answer").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${artefacts}/learn-gff-verdict.png` });
  await page.locator(".verdicts li .rule-link").first().click();
  await page.waitForFunction(() => !document.getElementById("rule-text").textContent.startsWith("Loading"));
  const ruleTitle = await page.locator("#rule-title").innerText();
  const ruleText = await page.locator("#rule-text").innerText();
  const panelFocused = await page.evaluate(() => document.activeElement?.id);
  await page.screenshot({ path: `${artefacts}/learn-gff-rule.png` });
  await page.keyboard.press("Escape");
  const panelHidden = await page.locator("#rule-panel").isHidden();
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  return { url: page.url(), dealt, meld, verdict, valid, rule, ruleTitle, ruleText, panelFocused, panelHidden, scrollWidth };
});

// 2. A Triple Tunk hand with wilds: Show best, each wild's provenance.
await journey("tt_wilds", async () => {
  const hand = encodeURIComponent("RH1 KH2 RH3 YT4 GB4 BS1");
  const page = await open(`/learn/?game=triple-tunk&hand=${hand}&players=3`, 800);
  const shown = await cards(page, "#hand");
  const labels = await page.locator("#hand [data-card]").evaluateAll((n) => n.map((x) => x.getAttribute("aria-label")));
  await page.click("#best");
  await page.waitForSelector("[data-best-meld]");
  const provenance = await page.locator("[data-provenance]").allInnerTexts();
  const answer = await page.locator("#answer").innerText();
  await shot(page, "learn-tt-wilds");
  return { shown, labels, provenance, answer };
});

// 3. A Game Flip Flop drop question: a probability with its interval; then again with the
// opponents' known pickups.
await journey("gff_drop", async () => {
  const hand = encodeURIComponent("AS 2D 6C 5H 4S");
  const page = await open(`/learn/?game=game-flip-flop&hand=${hand}&players=3&seed=3`);
  await page.click("#knock");
  await page.waitForSelector("#win-text");
  const text = await page.locator("#win-text").innerText();
  const bar = await page.locator("#win-bar").getAttribute("aria-label");
  const fill = await page.locator("#win-bar .fill").evaluate((n) => n.style.width);
  const ci = await page.locator("#win-bar .ci").evaluate((n) => [n.style.left, n.style.width]);
  await shot(page, "learn-gff-drop");
  await page.locator("#answer").screenshot({ path: `${artefacts}/learn-gff-drop-answer.png` });
  await page.fill("#picked", "1: KD\n2: QS");
  await page.click("#knock");
  await page.waitForFunction((before) => {
    const node = document.getElementById("win-text");
    return node && node.textContent !== before;
  }, text, { timeout: 15000 }).catch(() => null);
  const withPickups = await page.locator("#win-text").innerText();
  const errorShown = await page.locator("#error").isVisible();
  return { text, bar, fill, ci, withPickups, errorShown };
});

// 4. A Three Thirteen round shows its wild rank.
await journey("t13_round", async () => {
  const page = await open("/learn/?game=three-thirteen&round=3&seed=5&players=2");
  const note = await page.locator("#wild-note").innerText();
  const round = await page.locator("#round").inputValue();
  const option = await page.locator("#round option:checked").innerText();
  const dealt = await cards(page, "#hand");
  await page.selectOption("#round", "7");
  await page.waitForFunction(() => document.getElementById("wild-note").textContent.includes("Round 7"));
  const note7 = await page.locator("#wild-note").innerText();
  const dealt7 = await cards(page, "#hand");
  const wildLabels = await page.locator("#hand [data-card]").evaluateAll((n) => n.map((x) => x.getAttribute("aria-label")).filter((l) => l.includes("wild")));
  await shot(page, "learn-t13-round");
  return { note, round, option, dealt, note7, dealt7, url: page.url(), wildLabels };
});

// 5. The keyboard alone: skip link, select three cards with Space, make a meld, Check.
await journey("keyboard", async () => {
  const hand = encodeURIComponent("7H 8H 9H 7S KC");
  const page = await open(`/learn/?game=game-flip-flop&hand=${hand}&players=3`);
  await page.keyboard.press("Tab");
  const skip = await page.evaluate(() => document.activeElement?.textContent);
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  const first = await page.evaluate(() => document.activeElement?.dataset.card);
  for (let i = 0; i < 3; i += 1) {
    await page.keyboard.press("Space");
    await page.keyboard.press("Tab");
  }
  const selected = await page.locator('#hand [aria-pressed="true"]').evaluateAll((n) => n.map((x) => x.dataset.card));
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  const onButton = await page.evaluate(() => document.activeElement?.id);
  await page.keyboard.press("Enter");
  const afterMeld = await page.evaluate(() => document.activeElement?.id);
  const meld = await cards(page, '[data-zone="0"]');
  await page.keyboard.press("Enter");
  await page.waitForSelector(".verdicts li");
  const verdict = await page.locator(".verdicts li").first().innerText();
  const valid = await page.locator(".verdicts li").first().getAttribute("data-valid");
  // Keys on a card: "1" moves the focused card into meld 1.
  await page.locator('#hand [data-card="7S"]').focus();
  await page.keyboard.press("1");
  const meldAfterKey = await cards(page, '[data-zone="0"]');
  await shot(page, "learn-keyboard");
  return { skip, first, selected, onButton, afterMeld, meld, verdict, valid, meldAfterKey };
});

// 6. Errors in words: a typed bad card (refused before sending) and a refused request.
await journey("errors", async () => {
  const page = await open("/learn/?game=game-flip-flop&seed=2");
  await page.fill("#typed-hand", "7H ZZ");
  await page.click("#typed button[type=submit]");
  const typed = await page.locator("#error").innerText();
  await page.fill("#table-melds", "1: 10S JS");
  await page.click("#discard");
  await page.waitForSelector("#error:not([hidden])");
  const refused = await page.locator("#error").innerText();
  return { typed, refused };
});

await browser.close();
process.stdout.write(JSON.stringify(out));
