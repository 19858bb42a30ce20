// Loads regtrack's HTML export in headless Chromium (playwright-core) at
// each given viewport width and checks that no table cell breaks a word or a
// number across lines: every run of non-space characters of every text node
// in the table (a `<wbr>` the report puts in a long metric or identifier
// ends a text node) is measured as a Range, and a run whose boxes lie on
// more than one line is a broken word. Measured twice per width, with the
// timelines closed (a full-page screenshot report-<width>px.png) and all
// open (report-<width>px-timelines.png). Also checks that the page itself
// never scrolls sideways (a wide table scrolls in its own box), and that at
// the widest width the table fits without scrolling.
// Usage: node no_broken_words.mjs <report.html> <screenshot-dir> <width>...
// Prints one JSON line; exits 1 with the failures on stderr.
import { chromium } from 'playwright-core';
import path from 'node:path';

const [, , htmlPath, shotDir, ...widthArgs] = process.argv;
const widths = widthArgs.map(Number);
if (!htmlPath || !shotDir || !widths.length || widths.some((w) => !(w > 0))) {
  console.error('usage: node no_broken_words.mjs <report.html> <screenshot-dir> <width>...');
  process.exit(2);
}

// Runs in the page: the broken words of the table's visible cells, and how
// wide the table, its box and the page are.
const measure = () => {
  const broken = [];
  let cells = 0;
  let words = 0;
  const table = document.getElementById('regs');
  const heads = table.tHead.rows[0].cells;
  for (const cell of table.querySelectorAll('th, td')) {
    if (!cell.getClientRects().length) continue;
    cells++;
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const re = /\S+/g;
      let w;
      while ((w = re.exec(n.data))) {
        const r = document.createRange();
        r.setStart(n, w.index);
        r.setEnd(n, w.index + w[0].length);
        const boxes = Array.from(r.getClientRects()).filter((b) => b.width > 0);
        if (!boxes.length) continue;
        words++;
        // Boxes on one line overlap vertically; a box starting below the
        // bottom of the first one is on a later line.
        const lines = 1 + boxes.filter((b) => b.top >= boxes[0].bottom - 1).length;
        if (lines > 1) {
          let column = (heads[cell.cellIndex] || {}).textContent;
          if (cell.tagName === 'TH') column = 'header';
          if (cell.parentElement.classList.contains('timeline')) column = 'timeline row';
          broken.push({
            word: w[0],
            lines,
            column,
            cell: cell.textContent.replace(/\s+/g, ' ').trim().slice(0, 120),
          });
        }
      }
    }
  }
  const box = table.parentElement;
  return {
    cells,
    words,
    broken,
    page_scroll: document.documentElement.scrollWidth - window.innerWidth,
    table_width: Math.round(table.getBoundingClientRect().width),
    table_scroll: box.scrollWidth - box.clientWidth,
  };
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const failures = [];
const report = [];
try {
  for (const width of widths) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    page.on('pageerror', (e) => failures.push(`${width}px: page error: ${e.message}`));
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:') || url.startsWith('data:') || url.startsWith('about:')) {
        return route.continue();
      }
      failures.push(`${width}px: network fetch ${url}`);
      return route.abort();
    });
    await page.goto('file://' + path.resolve(htmlPath));
    for (const state of ['closed', 'open']) {
      if (state === 'open') {
        await page.$$eval('#regs button.tl', (bs) => bs.forEach((b) => b.click()));
      }
      const m = await page.evaluate(measure);
      const at = `${width}px, timelines ${state}`;
      const shot = path.join(shotDir, `report-${width}px${state === 'open' ? '-timelines' : ''}.png`);
      await page.screenshot({ path: shot, fullPage: true });
      for (const b of m.broken) {
        failures.push(`${at}: "${b.word}" broken over ${b.lines} lines in column ${b.column}: ${b.cell}`);
      }
      if (m.cells < 20 || m.words < 100) failures.push(`${at}: only ${m.cells} cells, ${m.words} words measured`);
      if (m.page_scroll > 0) failures.push(`${at}: the page scrolls ${m.page_scroll}px sideways`);
      if (width === Math.max(...widths) && m.table_scroll > 0) {
        failures.push(`${at}: the table scrolls ${m.table_scroll}px sideways in its box`);
      }
      report.push({ width, timelines: state, cells: m.cells, words: m.words, broken: m.broken.length,
        table_width: m.table_width, table_scroll: m.table_scroll, screenshot: shot });
    }
    await page.close();
  }
  console.log(JSON.stringify({ widths: report, failures }));
} finally {
  await browser.close();
}
if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
