// regalloc view: draws one function's allocation from the JSON in #data.
// The live-range chart is a canvas the size of the visible area, redrawn
// on scroll with only the rows and segments in view, so that a function
// of thousands of instructions and registers draws in milliseconds; the
// decision timeline likewise makes elements for its visible rows only.
(function () {
  'use strict';
  const started = performance.now();
  const D = JSON.parse(document.getElementById('data').textContent);
  const U = D.unit; // raw slot-index units per instruction
  const LABEL_W = 130, ROW_H = 16, CFG_H = 40, CODE_H = 14, PRESS_H = 13;
  const $ = (id) => document.getElementById(id);
  const scroller = $('scroller'), spacer = $('spacer'), rowsCanvas = $('rows');
  const topCanvas = $('top'), tip = $('tip'), timeline = $('timeline'), tspacer = $('tspacer');

  const blocks = D.blocks;
  // The blocks each edge bundle joins, for the region candidates' networks.
  const bundleBlocks = new Map(D.bundles);
  const end = blocks.length ? blocks[blocks.length - 1].end : U;
  const total = Math.max(1, end / U);
  const classOf = (v) => (v.class == null ? null : D.classes[v.class]);
  const usedClasses = [...new Set(D.vregs.map((v) => v.class).filter((c) => c != null))].sort((a, b) => a - b);
  const byIndex = new Map(D.vregs.map((v) => [v.v, v]));
  const maxFreq = Math.max(1e-9, ...blocks.map((b) => b.freq));

  // Marks by the input register they belong to; the rest go on the code strip.
  const marksOf = new Map();
  const loose = [];
  for (const m of D.marks) {
    if (m.o != null && byIndex.has(m.o)) {
      if (!marksOf.has(m.o)) marksOf.set(m.o, []);
      marksOf.get(m.o).push(m);
    } else loose.push(m);
  }
  const byPosition = (a, b) => a.at - b.at;
  loose.sort(byPosition);
  for (const list of marksOf.values()) list.sort(byPosition);
  // Decisions by the input register of each range they name.
  const decisionsOf = new Map();
  const originOf = (v) => (D.origin[v] == null ? v : D.origin[v]);
  D.decisions.forEach((d, i) => {
    const named = new Set([originOf(d.v), ...(d.x || []).map(originOf)]);
    for (const o of named) {
      if (!decisionsOf.has(o)) decisionsOf.set(o, []);
      decisionsOf.get(o).push(i);
    }
  });

  // Registers get a hue from their name; ranges without one are grey.
  const colours = new Map();
  function colour(reg) {
    if (reg == null) return '#9e9e9e';
    if (!colours.has(reg)) {
      let h = 2166136261;
      for (const c of reg) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
      colours.set(reg, 'hsl(' + ((h >>> 0) % 360) + ',62%,' + (45 + ((h >>> 9) % 20)) + '%)');
    }
    return colours.get(reg);
  }

  // The view: filtered rows, zoom, selection.
  let rows = [];
  let px = 1; // pixels per instruction
  let fit = 1;
  let selected = null; // input register index
  let selectedPiece = null; // range (virtual register) index
  let selectedDecision = null;
  let pinned = new Set(); // the input registers a selected decision names, shown first

  const classSelect = $('class');
  for (const c of usedClasses) {
    const o = document.createElement('option');
    o.value = c;
    o.textContent = D.classes[c].name + ' (' + D.vregs.filter((v) => v.class === c).length + ')';
    classSelect.appendChild(o);
  }
  $('title').textContent = D.function + ' \u2014 ' + D.target + ', ' + D.allocator + ': ' +
    D.insts.length + ' instructions, ' + D.vregs.length + ' virtual registers, ' +
    D.stats.spills + ' spills, ' + D.stats.reloads + ' reloads, ' + D.stats.remats + ' remats, ' +
    D.stats.copies + ' copies';

  function filterRows() {
    const c = classSelect.value;
    const q = $('search').value.trim().toLowerCase();
    rows = D.vregs.filter((v) => {
      if (c !== '' && String(v.class) !== c) return false;
      if (!q) return true;
      if (q.startsWith('$')) return v.regs.includes(q) || v.pieces.some((k) => D.pieces[k].reg === q);
      return v.name.toLowerCase() === q || v.name.toLowerCase().startsWith(q.startsWith('%') ? q : '%' + q);
    });
    const start = (v) => (v.segs.length ? v.segs[0][0] : 0);
    rows.sort((a, b) => (pinned.has(b.v) - pinned.has(a.v)) || start(a) - start(b));
    layout();
  }

  const xOf = (raw) => LABEL_W + (raw / U) * px - scroller.scrollLeft;
  const rawOf = (x) => ((x - LABEL_W + scroller.scrollLeft) / px) * U;

  function layout() {
    const w = scroller.clientWidth;
    fit = Math.max(0.05, (w - LABEL_W - 20) / total);
    const z = +$('zoom').value / 100;
    px = fit * Math.pow(Math.max(1, 40 / fit), z);
    spacer.style.width = LABEL_W + total * px + 20 + 'px';
    spacer.style.height = rows.length * ROW_H + 'px';
    topCanvas.height = CFG_H + CODE_H + usedClasses.length * PRESS_H + 4;
    draw();
  }

  function sized(canvas, w, h) {
    const r = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(w * r) || canvas.height !== Math.round(h * r)) {
      canvas.width = Math.round(w * r);
      canvas.height = Math.round(h * r);
      canvas.style.width = w + 'px';
      canvas.style.height = h + 'px';
    }
    const g = canvas.getContext('2d');
    g.setTransform(r, 0, 0, r, 0, 0);
    return g;
  }

  // The block strip (frequency as height, loop depth as colour, edges that
  // are not fall-throughs as peaks), the strip of spill code with no known
  // owner, and a pressure row per class.
  function drawTop() {
    const w = scroller.clientWidth;
    const h = CFG_H + CODE_H + usedClasses.length * PRESS_H + 4;
    const g = sized(topCanvas, w, h);
    g.clearRect(0, 0, w, h);
    g.font = '10px system-ui, sans-serif';
    const lo = rawOf(LABEL_W), hi = rawOf(w);
    let lastColumn = -1;
    blocks.forEach((b, i) => {
      if (b.end < lo || b.start > hi) return;
      const x0 = Math.max(LABEL_W, xOf(b.start)), x1 = Math.min(w, xOf(b.end));
      // Zoomed out, one block per pixel column (the deepest loop first
      // in the order blocks come; enough to see the loops).
      if (x1 - x0 < 1 && Math.floor(x0) === lastColumn) return;
      lastColumn = Math.floor(x0);
      const fh = 6 + 16 * Math.min(1, Math.log2(1 + b.freq) / Math.log2(1 + maxFreq));
      g.fillStyle = ['#e3f2fd', '#90caf9', '#42a5f5', '#1e88e5', '#1565c0'][Math.min(4, b.depth)];
      g.fillRect(x0, CFG_H - fh - 2, Math.max(1, x1 - x0 - 1), fh);
      if (x1 - x0 > 40) {
        g.fillStyle = b.depth >= 2 ? '#fff' : '#000';
        g.fillText(b.name + ' f=' + (+b.freq.toPrecision(3)) + (b.depth ? ' L' + b.depth : ''), x0 + 2, CFG_H - 5);
      }
    });
    // The selected region candidate's decisions: a band over each block
    // its bundles touch, green where the value is in the register.
    const cm = candidateMarks();
    if (cm) {
      for (const [i, value] of cm) {
        const b = blocks[i];
        if (!b || b.end < lo || b.start > hi) continue;
        const x0 = Math.max(LABEL_W, xOf(b.start)), x1 = Math.min(w, xOf(b.end));
        g.fillStyle = value > 0 ? '#2e7d32' : '#c62828';
        g.fillRect(x0, 0, Math.max(2, x1 - x0 - 1), 4);
      }
    }
    // Edges that are not fall-throughs, as peaks above the blocks (one path).
    g.strokeStyle = '#0006';
    g.beginPath();
    blocks.forEach((b, i) => {
      for (const s of b.succs) {
        if (s === i + 1) continue;
        const t = blocks[s];
        if (Math.max(b.end, t.start) < lo || Math.min(b.end, t.start) > hi) continue;
        const from = xOf(b.end) - 2, to = xOf(t.start) + 2;
        const mid = (from + to) / 2, rise = Math.min(CFG_H - 24, 4 + Math.abs(to - from) / 8);
        // Two straight strokes: curves cost a hundred times more to fill
        // in software, and a big function has thousands of edges.
        g.moveTo(from, CFG_H - 22);
        g.lineTo(mid, CFG_H - 22 - rise);
        g.lineTo(to, CFG_H - 22);
      }
    });
    g.stroke();
    g.fillStyle = '#000';
    g.fillText('blocks (freq, loop depth)', 4, CFG_H - 5);
    g.fillText('spill code', 4, CFG_H + CODE_H - 3);
    glyphs(g, loose, lo, hi, CFG_H + 7);
    usedClasses.forEach((c, k) => {
      const y = CFG_H + CODE_H + k * PRESS_H;
      const avail = D.classes[c].available;
      g.fillStyle = '#000';
      g.fillText(D.classes[c].name.slice(0, 20) + ' /' + avail, 4, y + 10);
      // Blocks narrower than a pixel share it: the fullest is drawn.
      let cell = null;
      const flush = () => {
        if (!cell) return;
        const r = cell.avail ? cell.p / cell.avail : cell.p ? 2 : 0;
        g.fillStyle = r > 1 ? '#e53935' : 'rgba(255,152,0,' + (0.08 + 0.8 * r) + ')';
        g.fillRect(cell.x0, y + 1, Math.max(1, cell.x1 - cell.x0 - 1), PRESS_H - 2);
        if (cell.x1 - cell.x0 > 24) {
          g.fillStyle = '#000';
          g.fillText(cell.p + '/' + cell.avail, cell.x0 + 2, y + 10);
        }
      };
      blocks.forEach((b, i) => {
        if (b.end < lo || b.start > hi) return;
        const p = D.pressure[i][c];
        const x0 = Math.max(LABEL_W, xOf(b.start)), x1 = Math.min(w, xOf(b.end));
        if (cell && cell.x1 - cell.x0 < 1) {
          cell.x1 = x1;
          cell.p = Math.max(cell.p, p);
          return;
        }
        flush();
        cell = { x0, x1, p, avail };
      });
      flush();
    });
  }

  // The marks between raw positions lo and hi on one line at y, one per
  // kind and pixel pair: zoomed out, thousands of marks cost a few
  // hundred glyphs.
  function glyphs(g, marks, lo, hi, y) {
    const last = {};
    for (const m of marks) {
      if (m.at < lo || m.at > hi) continue;
      const x = xOf(m.at);
      if (last[m.k] !== undefined && Math.abs(x - last[m.k]) < 2) continue;
      last[m.k] = x;
      glyph(g, m, x, y);
    }
  }

  // Spill code glyphs: store down, reload up, remat diamond, copy dot,
  // fold square, removed cross.
  function glyph(g, m, x, y) {
    g.fillStyle = { spill: '#d32f2f', reload: '#1976d2', remat: '#2e7d32', copy: '#7b1fa2', fold: '#ef6c00', removed: '#616161' }[m.k];
    g.beginPath();
    switch (m.k) {
      case 'spill': g.moveTo(x - 4, y - 4); g.lineTo(x + 4, y - 4); g.lineTo(x, y + 4); break;
      case 'reload': g.moveTo(x - 4, y + 4); g.lineTo(x + 4, y + 4); g.lineTo(x, y - 4); break;
      case 'remat': g.moveTo(x, y - 5); g.lineTo(x + 4, y); g.lineTo(x, y + 5); g.lineTo(x - 4, y); break;
      case 'copy': g.arc(x, y, 3, 0, 7); break;
      case 'fold': g.rect(x - 3, y - 3, 6, 6); break;
      default: g.moveTo(x - 3, y - 3); g.lineTo(x + 3, y + 3); g.moveTo(x + 3, y - 3); g.lineTo(x - 3, y + 3);
        g.strokeStyle = g.fillStyle; g.stroke(); return;
    }
    g.fill();
  }

  // Segments as bars, runs closer than a pixel drawn as one rectangle:
  // zoomed out, a row of hundreds of segments costs a few rectangles.
  function bar(g, segs, lo, hi, y, h) {
    let r0 = -1, r1 = -1;
    for (const s of segs) {
      if (s[1] < lo || s[0] > hi) continue;
      const x0 = Math.max(LABEL_W, xOf(s[0])), x1 = Math.max(x0 + 1, xOf(s[1]));
      if (r1 >= 0 && x0 <= r1 + 1) {
        r1 = Math.max(r1, x1);
        continue;
      }
      if (r1 >= 0) g.fillRect(r0, y, r1 - r0, h);
      r0 = x0;
      r1 = x1;
    }
    if (r1 >= 0) g.fillRect(r0, y, r1 - r0, h);
  }

  // The visible rows: each input register's segments (grey), the pieces
  // the allocator ended with in their registers' colours (or, without
  // pieces, the stretch after each operand in the register it got),
  // value definitions, operands and spill code.
  function drawRows() {
    const w = scroller.clientWidth, h = scroller.clientHeight;
    rowsCanvas.style.top = scroller.offsetTop + 'px';
    const g = sized(rowsCanvas, w, h);
    g.clearRect(0, 0, w, h);
    const first = Math.floor(scroller.scrollTop / ROW_H);
    const last = Math.min(rows.length, first + Math.ceil(h / ROW_H) + 1);
    const lo = rawOf(LABEL_W), hi = rawOf(w);
    g.font = '11px ui-monospace, monospace';
    // Block boundaries.
    g.fillStyle = '#0000000d';
    for (const b of blocks) {
      if (b.start >= lo && b.start <= hi) g.fillRect(xOf(b.start), 0, 1, h);
    }
    for (let r = first; r < last; r++) {
      const v = rows[r];
      const y = r * ROW_H - scroller.scrollTop;
      if (v.v === selected || pinned.has(v.v)) {
        g.fillStyle = v.v === selected ? '#fff59d' : '#e3f2fd';
        g.fillRect(0, y, w, ROW_H);
      } else if (r % 2) {
        g.fillStyle = '#00000008';
        g.fillRect(0, y, w, ROW_H);
      }
      g.fillStyle = '#e0e0e0';
      bar(g, v.segs, lo, hi, y + 6, 4);
      if (v.pieces.length) {
        v.pieces.forEach((k, n) => {
          const p = D.pieces[k];
          g.fillStyle = colour(p.reg);
          const lane = v.pieces.length > 1 ? (n % 2) * 3 : 1;
          bar(g, p.segs, lo, hi, y + 2 + lane, 9);
          if (p.v === selectedPiece) {
            g.strokeStyle = '#000';
            g.lineWidth = 2;
            for (const s of p.segs) {
              if (s[1] < lo || s[0] > hi) continue;
              g.strokeRect(Math.max(LABEL_W, xOf(s[0])), y + 1 + lane, Math.max(2, xOf(s[1]) - Math.max(LABEL_W, xOf(s[0]))), 11);
            }
            g.lineWidth = 1;
          }
        });
      } else {
        spans(g, v, lo, hi, y);
      }
      // Value definitions.
      g.fillStyle = '#000';
      v.defs.forEach((d, n) => {
        if (d < lo || d > hi) return;
        g.fillRect(xOf(d), y + 1, 1, ROW_H - 2);
        if (px > 14) g.fillText(String(n), xOf(d) + 2, y + 10);
      });
      // Operands: a tick above for a definition, below for a use.
      if (px > 2) {
        for (const o of v.ops) {
          if (o[0] < lo || o[0] > hi) continue;
          g.fillStyle = o[1] == null ? '#ef6c00' : '#000';
          g.fillRect(xOf(o[0]) - 1, o[2] ? y : y + ROW_H - 3, 3, 3);
        }
      }
      glyphs(g, marksOf.get(v.v) || [], lo, hi, y + ROW_H / 2);
      // The label column stays put.
      g.fillStyle = v.v === selected ? '#fff59d' : pinned.has(v.v) ? '#e3f2fd' : '#fafafa';
      g.fillRect(0, y, LABEL_W, ROW_H);
      g.fillStyle = v.spilled ? '#c62828' : '#222';
      const cls = classOf(v);
      g.fillText(v.name + ' ' + (cls ? cls.name : '').slice(0, 12), 3, y + 12);
    }
  }

  // Without the allocator's pieces (Fast): each stretch of a segment from
  // one operand to the next in the register that operand got.
  function spans(g, v, lo, hi, y) {
    const ops = v.ops;
    for (const s of v.segs) {
      if (s[1] < lo || s[0] > hi) continue;
      let from = s[0], reg = null;
      for (const o of ops) {
        if (o[0] < s[0] || o[0] >= s[1]) continue;
        if (o[0] > from) {
          g.fillStyle = colour(reg == null ? o[1] : reg);
          g.fillRect(Math.max(LABEL_W, xOf(from)), y + 3, Math.max(1, xOf(o[0]) - Math.max(LABEL_W, xOf(from))), 9);
        }
        from = o[0];
        reg = o[1];
      }
      g.fillStyle = colour(reg);
      g.fillRect(Math.max(LABEL_W, xOf(from)), y + 3, Math.max(1, xOf(s[1]) - Math.max(LABEL_W, xOf(from))), 9);
    }
  }

  let lastDraw = 0;
  function draw() {
    const t = performance.now();
    drawTop();
    drawRows();
    lastDraw = performance.now() - t;
    $('status').textContent = rows.length + ' rows; drawn in ' + lastDraw.toFixed(1) + ' ms';
  }
  let pending = false;
  function redraw() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; draw(); });
  }

  // The instruction at a raw position: the last one starting at or before it.
  const instAts = D.insts.map((i) => i.at);
  function instAt(raw) {
    let a = 0, b = instAts.length - 1, k = -1;
    while (a <= b) {
      const m = (a + b) >> 1;
      if (instAts[m] <= raw) { k = m; a = m + 1; } else b = m - 1;
    }
    return k < 0 ? null : D.insts[k];
  }

  function pieceAt(v, raw) {
    for (const k of v.pieces) {
      const p = D.pieces[k];
      if (p.segs.some((s) => s[0] <= raw && raw < s[1])) return p;
    }
    return null;
  }

  function hit(e) {
    const rect = scroller.getBoundingClientRect();
    const x = e.clientX - rect.left, y = e.clientY - rect.top;
    const r = Math.floor((y + scroller.scrollTop) / ROW_H);
    return { x, y, raw: rawOf(x), v: rows[r] };
  }

  const esc = (s) => String(s).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
  // LLVM's printed numbering: 16 per instruction, then the slot letter.
  const slotName = (raw) => ((raw / U) * 16 | 0) + 'Berd'[raw & 3];

  scroller.addEventListener('scroll', redraw);
  window.addEventListener('resize', layout);
  scroller.addEventListener('mousemove', (e) => {
    const h = hit(e);
    if (!h.v || h.x < LABEL_W) { tip.style.display = 'none'; return; }
    const inst = instAt(h.raw);
    const p = pieceAt(h.v, h.raw);
    const near = (marksOf.get(h.v.v) || []).filter((m) => Math.abs(xOf(m.at) - h.x) < 6);
    let text = h.v.name + ' (' + (classOf(h.v) || { name: '?' }).name + ')  at ' + slotName(h.raw);
    if (p) text += '\npiece ' + D.names[p.v] + ' in ' + (p.reg || 'no register (spilled)');
    for (const m of near) text += '\n' + m.k + (m.reg ? ' ' + m.reg : '') + (m.slot != null ? ' %stack.' + m.slot : '') + (m.text ? ': ' + m.text : '');
    if (inst) text += '\n\n' + blocks[inst.b].name + ': ' + inst.text + '\n  \u2192 ' + (inst.after == null ? '(removed)' : inst.after);
    tip.textContent = text;
    tip.style.display = 'block';
    const cr = $('chart').getBoundingClientRect();
    tip.style.left = Math.min(cr.width - 380, e.clientX - cr.left + 12) + 'px';
    tip.style.top = e.clientY - cr.top + 14 + 'px';
  });
  scroller.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
  scroller.addEventListener('click', (e) => {
    const h = hit(e);
    if (!h.v) return;
    const p = h.x >= LABEL_W ? pieceAt(h.v, h.raw) : null;
    select(h.v.v, p ? p.v : null, null);
  });
  scroller.addEventListener('wheel', (e) => {
    if (!e.ctrlKey) return;
    e.preventDefault();
    const z = $('zoom');
    z.value = Math.max(0, Math.min(100, +z.value - Math.sign(e.deltaY) * 5));
    zoomAround(e.clientX - scroller.getBoundingClientRect().left);
  }, { passive: false });
  function zoomAround(x) {
    const raw = rawOf(x);
    layout();
    scroller.scrollLeft = Math.max(0, (raw / U) * px - (x - LABEL_W));
    draw();
  }
  $('zoom').addEventListener('input', () => zoomAround(scroller.clientWidth / 2));
  classSelect.addEventListener('change', filterRows);
  $('search').addEventListener('input', filterRows);

  // Selecting a register (and one of its pieces, or a decision): the row
  // scrolled into view, its details, its decisions.
  function select(v, piece, decision) {
    selected = v;
    selectedPiece = piece;
    selectedDecision = decision;
    const d = decision == null ? null : D.decisions[decision];
    const named = d ? new Set([originOf(d.v), ...(d.x || []).map(originOf)]) : new Set();
    if (named.size !== pinned.size || [...named].some((x) => !pinned.has(x))) {
      pinned = named;
      filterRows();
    }
    let r = rows.findIndex((x) => x.v === v);
    if (r < 0) {
      classSelect.value = '';
      $('search').value = '';
      filterRows();
      r = rows.findIndex((x) => x.v === v);
    }
    if (r >= 0) {
      const y = r * ROW_H;
      if (y < scroller.scrollTop || y > scroller.scrollTop + scroller.clientHeight - 2 * ROW_H) {
        scroller.scrollTop = Math.max(0, y - scroller.clientHeight / 3);
      }
      const p = piece != null ? D.pieces.find((q) => q.v === piece) : null;
      const segs = p ? p.segs : rows[r].segs;
      if (segs.length) {
        const x = (segs[0][0] / U) * px;
        if (x < scroller.scrollLeft || x > scroller.scrollLeft + scroller.clientWidth - LABEL_W - 40) {
          scroller.scrollLeft = Math.max(0, x - 40);
        }
      }
    }
    details(byIndex.get(v));
    renderTimeline();
    redraw();
  }

  function vlink(v) {
    const o = originOf(v);
    const name = D.names[v] || ('#' + v);
    const of = o !== v && D.names[o] ? ' (' + D.names[o] + ')' : '';
    return '<a class="v" data-o="' + o + '" data-p="' + v + '">' + esc(name) + '</a>' + esc(of);
  }

  function decisionHtml(d) {
    const sw = (r) => '<span class="sw" style="background:' + colour(r) + '"></span>' + esc(r);
    switch (d.k) {
      case 'assign': return vlink(d.v) + ' \u2192 ' + sw(d.r);
      case 'unassign': return vlink(d.v) + ' leaves ' + sw(d.r);
      case 'evict': return vlink(d.v) + ' evicts ' + d.x.map(vlink).join(' ') + ' from ' + sw(d.r);
      case 'split': return d.s + ' split ' + vlink(d.v) + ' \u2192 ' + d.x.map(vlink).join(' ');
      case 'spill': return vlink(d.v) + (d.x.length ? ' \u2192 ' + d.x.map(vlink).join(' ') : '');
      case 'candidate': return vlink(d.v) + ' in ' + sw(d.r) + ' costs ' + (+d.c.toPrecision(4)) +
        (d.b.length ? ' (' + d.b.filter((n) => n[3] > 0).length + '/' + d.b.length + ' bundles in the register)' : ' (as an earlier candidate)');
      default: return '';
    }
  }

  function details(v) {
    const box = $('details');
    if (!v) { box.innerHTML = ''; return; }
    const cls = classOf(v);
    let html = '<b>' + esc(v.name) + '</b> ' + esc(cls ? cls.name : '') + ', weight ' + esc(v.weight) +
      (v.spilled ? ', <span class="k-spill">spilled</span>' : '') + '<br>';
    html += 'registers in the code: ' + (v.regs.map((r) => '<span class="sw" style="background:' + colour(r) + '"></span>' + esc(r)).join(' ') || 'none') + '<br>';
    const few = (list, f) => list.slice(0, 12).map(f).join(' ') + (list.length > 12 ? ' \u2026 ' + (list.length - 12) + ' more' : '');
    html += v.defs.length + ' values: ' + few(v.defs, (d, n) => n + '@' + slotName(d)) + '<br>';
    html += v.segs.length + ' segments: ' + few(v.segs, (s) => '[' + slotName(s[0]) + ',' + slotName(s[1]) + ':' + s[2] + ')') + '<br>';
    if (v.pieces.length) {
      html += '<table>';
      for (const k of v.pieces) {
        const p = D.pieces[k];
        html += '<tr' + (p.v === selectedPiece ? ' style="background:#bbdefb"' : '') + '><td>' + vlink(p.v) + '</td><td>' +
          (p.reg ? '<span class="sw" style="background:' + colour(p.reg) + '"></span>' + esc(p.reg) : 'no register') +
          '</td><td>' + few(p.segs, (s) => '[' + slotName(s[0]) + ',' + slotName(s[1]) + ')') + '</td></tr>';
      }
      html += '</table>';
    }
    const ms = marksOf.get(v.v) || [];
    if (ms.length) html += ms.length + ' spill-code marks: ' + few(ms, (m) => m.k + '@' + slotName(m.at)) + '<br>';
    const ds = decisionsOf.get(v.v) || [];
    html += ds.length + ' decisions';
    const d = selectedDecision == null ? null : D.decisions[selectedDecision];
    if (d && d.k === 'candidate' && d.b.length) html += networkHtml(d);
    box.innerHTML = html;
  }

  // A region split candidate's spill placement network: per edge bundle,
  // the blocks it joins, the biases for the register and for the stack
  // (block frequencies; "must" where a border must spill) and the value it
  // settled on. The blocks are marked in the block strip while selected.
  function networkHtml(d) {
    const f = (x) => (+x.toPrecision(3)).toString();
    let html = '<br><b>spill placement for ' + esc(d.r) + '</b><table><tr><th>bundle</th><th>blocks</th><th>reg bias</th><th>stack bias</th><th>value</th></tr>';
    const few = (list) => list.slice(0, 6).map((b) => 'bb.' + b).join(' ') + (list.length > 6 ? ' \u2026' : '');
    for (const [bundle, reg, stack, value] of d.b.slice(0, 200)) {
      const bs = bundleBlocks.get(bundle) || [];
      html += '<tr><td>' + bundle + '</td><td>' + few(bs) + '</td><td>' + f(reg) + '</td><td>' + (stack < 0 ? 'must' : f(stack)) +
        '</td><td class="' + (value > 0 ? 'k-assign' : 'k-spill') + '">' + (value > 0 ? 'register' : value < 0 ? 'stack' : 'undecided') + '</td></tr>';
    }
    if (d.b.length > 200) html += '<tr><td colspan="5">\u2026 ' + (d.b.length - 200) + ' more</td></tr>';
    return html + '</table>';
  }

  // Per block, the values of the selected candidate's bundles touching it
  // (1 register, -1 stack; a block touched by both shows register).
  function candidateMarks() {
    const d = selectedDecision == null ? null : D.decisions[selectedDecision];
    if (!d || d.k !== 'candidate' || !d.b.length) return null;
    const m = new Map();
    for (const [bundle, , , value] of d.b) {
      for (const b of bundleBlocks.get(bundle) || []) m.set(b, Math.max(m.has(b) ? m.get(b) : -1, value > 0 ? 1 : -1));
    }
    return m;
  }

  document.addEventListener('click', (e) => {
    const a = e.target.closest && e.target.closest('a.v');
    if (!a) return;
    e.stopPropagation();
    select(+a.dataset.o, +a.dataset.p, selectedDecision);
  });

  // The timeline: every decision, or those naming the selected register.
  const DH = 18;
  function timelineList() {
    return selected != null && decisionsOf.has(selected) ? decisionsOf.get(selected) : D.decisions.map((_, i) => i);
  }
  function renderTimeline() {
    const list = timelineList();
    $('dcount').textContent = '(' + list.length + (selected != null ? ' of ' + D.decisions.length + ' name ' + (byIndex.get(selected) || { name: '' }).name : '') + ')';
    tspacer.style.height = list.length * DH + 'px';
    const first = Math.floor(timeline.scrollTop / DH);
    const last = Math.min(list.length, first + Math.ceil(timeline.clientHeight / DH) + 2);
    let html = '';
    for (let k = first; k < last; k++) {
      const i = list[k];
      const d = D.decisions[i];
      html += '<div class="d' + (i === selectedDecision ? ' sel' : '') + '" data-i="' + i + '" style="top:' + k * DH + 'px"><span class="n">#' + i +
        '</span><span class="k-' + d.k + '">' + d.k + '</span> ' + decisionHtml(d) + '</div>';
    }
    tspacer.innerHTML = html;
  }
  timeline.addEventListener('scroll', renderTimeline);
  tspacer.addEventListener('click', (e) => {
    if (e.target.closest('a.v')) return;
    const row = e.target.closest('.d');
    if (!row) return;
    const d = D.decisions[+row.dataset.i];
    select(originOf(d.v), d.v, +row.dataset.i);
  });
  if (!D.decisions.length) {
    tspacer.innerHTML = '<p class="hint" style="padding:6px">' +
      (D.allocator === 'fast' ? 'Fast keeps no live intervals and reports no decisions: the colours are the registers its code gives each operand.' : 'No decisions were reported.') + '</p>';
  }

  filterRows();
  if (D.decisions.length) renderTimeline();
  // A state to open at, from the address: #zoom=60&d=123 (a decision) or
  // #v=%12 (a register), so that a view can be linked to.
  const wanted = new URLSearchParams(location.hash.slice(1));
  if (wanted.has('zoom')) {
    $('zoom').value = wanted.get('zoom');
    layout();
  }
  if (wanted.has('d') && D.decisions[+wanted.get('d')]) {
    const i = +wanted.get('d'), d = D.decisions[i];
    select(originOf(d.v), d.v, i);
    const k = timelineList().indexOf(i);
    timeline.scrollTop = Math.max(0, k * DH - 60);
    renderTimeline();
  } else if (wanted.has('v')) {
    const v = D.vregs.find((x) => x.name === wanted.get('v'));
    if (v) select(v.v, null, null);
  }
  if (wanted.has('class')) {
    classSelect.value = wanted.get('class');
    filterRows();
  }
  draw();
  const loaded = performance.now() - started;
  document.body.dataset.loadMs = loaded.toFixed(1);
  document.body.dataset.drawMs = lastDraw.toFixed(1);
  $('status').textContent += '; page ready in ' + loaded.toFixed(0) + ' ms';
})();
