// Loads regtrack's HTML export in headless Chromium (playwright-core), checks
// that nothing is fetched from the network, clicks column headers and checks
// the row order, opens a timeline, and takes a screenshot.
// Usage: node click_sort.mjs <report.html> <screenshot.png>
import { chromium } from 'playwright-core';
import path from 'node:path';

const [, , htmlPath, shotPath] = process.argv;
if (!htmlPath || !shotPath) {
  console.error('usage: node click_sort.mjs <report.html> <screenshot.png>');
  process.exit(2);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const failures = [];
const fetched = [];
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (e) => failures.push('page error: ' + e.message));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:') || url.startsWith('about:')) {
      return route.continue();
    }
    fetched.push(url);
    return route.abort();
  });
  await page.goto('file://' + path.resolve(htmlPath));

  const column = async (name) => page.$$eval('#regs thead th', (ths, n) =>
    ths.findIndex((th) => th.textContent.trim() === n), name);
  const cells = async (idx) => page.$$eval('#regs tbody tr', (rows, i) =>
    rows.map((r) => {
      const td = r.cells[i];
      return td.getAttribute('data-value') ?? td.textContent.trim();
    }), idx);
  const checkSorted = (vals, numeric, asc, what) => {
    const conv = vals.map((v) => (numeric ? parseFloat(v) : v.toLowerCase()));
    for (let i = 1; i < conv.length; i++) {
      const a = conv[i - 1]; const b = conv[i];
      if (numeric && (Number.isNaN(a) || Number.isNaN(b))) continue;
      if (asc ? a > b : a < b) {
        failures.push(`${what}: not ${asc ? 'ascending' : 'descending'} at row ${i}: ${vals.join(' | ')}`);
        return;
      }
    }
  };

  const rows = await page.$$eval('#regs tbody tr', (r) => r.length);
  if (rows < 2) failures.push(`expected at least 2 rows, found ${rows}`);

  for (const [name, numeric] of [['Change', true], ['ID', true], ['Subsystem', false]]) {
    const idx = await column(name);
    if (idx < 0) { failures.push(`no column ${name}`); continue; }
    const th = page.locator('#regs thead th').nth(idx);
    await th.click();
    checkSorted(await cells(idx), numeric, true, `${name} after one click`);
    if ((await th.getAttribute('aria-sort')) !== 'ascending') failures.push(`${name}: aria-sort not ascending`);
    await th.click();
    checkSorted(await cells(idx), numeric, false, `${name} after two clicks`);
  }
  const idIdx = await column('ID');
  const ids = await cells(idIdx);
  // Filter: typing the first row's subsystem keeps exactly the rows that contain it.
  const subIdx = await column('Subsystem');
  const want = (await cells(subIdx))[0].toLowerCase();
  await page.fill('#filter', want);
  const seen = await page.$$eval('#regs tbody tr', (rs) => rs.map((r) => [r.style.display !== 'none', r.textContent.toLowerCase()]));
  const visible = seen.filter(([v]) => v).length;
  if (visible < 1) failures.push(`filter '${want}' left no row visible`);
  for (const [v, text] of seen) {
    if (v !== text.includes(want)) failures.push(`filter '${want}' shows/hides the wrong rows`);
  }
  // The status select keeps only that status.
  await page.fill('#filter', '');
  await page.selectOption('#status', 'improvement');
  const statuses = await page.$$eval('#regs tbody tr', (rs) => rs.filter((r) => r.style.display !== 'none').map((r) => r.getAttribute('data-status')));
  if (statuses.some((s) => s !== 'improvement')) failures.push(`status filter shows ${statuses}`);
  await page.selectOption('#status', '');
  await page.fill('#filter', '');
  // Open the first timeline; it carries an SVG chart somewhere in the table.
  await page.locator('#regs tbody tr details summary').first().click();
  const charts = await page.$$eval('svg.chart', (s) => s.length);
  if (charts < 1) failures.push('no inline SVG chart');
  await page.screenshot({ path: shotPath, fullPage: true });
  console.log(JSON.stringify({ rows, ids_after_sort: ids, charts, fetched, failures }));
} finally {
  await browser.close();
}
if (fetched.length) failures.push('network fetches: ' + fetched.join(', '));
if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
