// Headless-browser check of the live page, driven by the JUnit test LivePageBrowserTest.
// Usage: node live-page.mjs URL EXPERIMENT SCREENSHOT.png [CHROMIUM]
// Loads the page, waits until it shows EXPERIMENT through Server-Sent Events, waits until that
// experiment's result count changes without a reload, checks its table, takes a screenshot.
// Prints one JSON line with what it saw; exits 1 with a reason on the first failed check.
import { chromium } from 'playwright-core';

const [url, experiment, screenshot, executable = '/usr/bin/chromium'] = process.argv.slice(2);
const fail = (msg) => { console.log(JSON.stringify({ ok: false, error: msg })); process.exit(1); };
if (!url || !experiment || !screenshot) fail('usage: node live-page.mjs URL EXPERIMENT SCREENSHOT [CHROMIUM]');

const browser = await chromium.launch({ executablePath: executable, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const nav = await page.goto(url, { waitUntil: 'load', timeout: 30000 });
  if (!nav || nav.status() !== 200) fail(`page answered ${nav && nav.status()}`);
  await page.waitForFunction(() => typeof window.Chart === 'function', null, { timeout: 10000 })
    .catch(() => fail('Chart.js did not load from the WebJar'));
  await page.waitForSelector('#status.on', { timeout: 15000 }).catch(() => fail('SSE connection never opened'));
  const card = `[data-experiment="${experiment}"]`;
  await page.waitForSelector(card, { timeout: 60000 }).catch(() => fail(`experiment ${experiment} never shown`));
  const count = async () => parseInt((await page.textContent(`${card} .results`)).trim(), 10);
  const first = await count();
  const firstVersion = await page.evaluate(() => Number(document.body.dataset.version));
  // The table must change while we watch, without reloading the page.
  await page.waitForFunction(([sel, n]) => {
    const e = document.querySelector(sel + ' .results');
    return e && parseInt(e.textContent, 10) > n;
  }, [card, first], { timeout: 60000 }).catch(() => fail(`result count stayed at ${first}`));
  const second = await count();
  const rows = await page.$$eval(`${card} table.accuracy tbody tr`, (trs) => trs.map((tr) => tr.innerText));
  const text = await page.textContent(card);
  // let the experiment progress a little more for the picture
  await page.waitForTimeout(1500);
  const third = await count();
  const lastVersion = await page.evaluate(() => Number(document.body.dataset.version));
  const workers = await page.$$eval('#workers tbody tr', (trs) => trs.length);
  await page.screenshot({ path: screenshot, fullPage: true });
  if (errors.length) fail(`page errors: ${errors.join('; ')}`);
  console.log(JSON.stringify({ ok: true, first, second, third, firstVersion, lastVersion, rows, workers,
    progress: /\/\s*\d+ results/.test(text) }));
} finally {
  await browser.close();
}
