// Loads regtrack's HTML export in headless Chromium (playwright-core), checks
// that nothing is fetched from the network, clicks column headers and checks
// the row order, opens a timeline in its own row, checks its links and that
// the page does not scroll sideways at 1400 px, and takes a screenshot.
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
  const cells = async (idx) => page.$$eval('#regs tbody tr.reg', (rows, i) =>
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

  const rows = await page.$$eval('#regs tbody tr.reg', (r) => r.length);
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
  const seen = await page.$$eval('#regs tbody tr.reg', (rs) => rs.map((r) => { const d = document.getElementById(r.getAttribute('data-timeline')); return [r.style.display !== 'none', (r.textContent + (d ? d.textContent : '')).toLowerCase()]; }));
  const visible = seen.filter(([v]) => v).length;
  if (visible < 1) failures.push(`filter '${want}' left no row visible`);
  for (const [v, text] of seen) {
    if (v !== text.includes(want)) failures.push(`filter '${want}' shows/hides the wrong rows`);
  }
  // The status select keeps only that status.
  await page.fill('#filter', '');
  await page.selectOption('#status', 'improvement');
  const statuses = await page.$$eval('#regs tbody tr.reg', (rs) => rs.filter((r) => r.style.display !== 'none').map((r) => r.getAttribute('data-status')));
  if (statuses.some((s) => s !== 'improvement')) failures.push(`status filter shows ${statuses}`);
  await page.selectOption('#status', '');
  await page.fill('#filter', '');
  // Open the first timeline with a chart: its own row, spanning the table.
  const button = page.locator('#regs tbody tr.reg button.tl').first();
  const target = await button.getAttribute('aria-controls');
  await button.click();
  const opened = await page.$eval('#' + target, (d) => ({
    hidden: d.hidden, span: d.cells[0].colSpan,
    width: d.getBoundingClientRect().width, table: document.getElementById('regs').getBoundingClientRect().width,
    links: Array.from(d.querySelectorAll('a[href]')).map((a) => a.getAttribute('href')) }));
  if (opened.hidden) failures.push('the timeline did not open');
  if (opened.width < opened.table * 0.95) failures.push(`the timeline row is ${opened.width}px of ${opened.table}px`);
  if (!opened.links.length) failures.push('the opened timeline has no links');
  for (const href of opened.links) {
    if (!/^https:\/\/lore\.kernel\.org\/all\/[^/]+\/$/.test(href)) failures.push(`timeline link ${href}`);
  }
  // Following a link goes to its lore page (answered here, never fetched).
  let followed = null;
  await page.route('https://lore.kernel.org/**', (route) => { followed = route.request().url(); return route.fulfill({ status: 200, body: 'lore' }); });
  if (opened.links.length) {
    await page.locator('#' + target + ' a[href]').first().click();
    await page.waitForTimeout(300);
    if (followed !== opened.links[0]) failures.push(`following ${opened.links[0]} went to ${followed}`);
    await page.goBack();
  }
  await page.locator('#' + target).evaluate((d) => { d.hidden = false; });
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (scroll > 0) failures.push(`the page scrolls ${scroll}px sideways at 1400px`);
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
