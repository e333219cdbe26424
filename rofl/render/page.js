/* rofl puzzle page: solve a nonogram by hand in a browser.
 *
 * Two halves.  The first is pure logic (clues of a line, line status, the
 * solved check, line deductions and hints, the storage key, stroke
 * geometry): no DOM, so the test suite runs it in V8 and compares it with
 * rofl's Python reference.  The second builds and drives the page and only
 * runs where a `document` exists.
 *
 * Cell states: 0 unknown, -1 known empty (the player's dot), k >= 1 painted
 * with palette colour k.  A grid is a flat row-major array of W * H states.
 * The page never holds the solution: it derives the clues of the player's
 * grid and compares them with the puzzle's, and its hints follow from the
 * clues and the player's marks alone.
 */
(function (root) {
  "use strict";

  var UNKNOWN = 0;
  var EMPTY = -1;

  // ------------------------------------------------------------ pure logic

  /** The [length, colour] groups of one line of states (dots and unknowns are background). */
  function lineClue(cells) {
    var groups = [];
    var prev = 0;
    for (var i = 0; i < cells.length; i++) {
      var v = cells[i] > 0 ? cells[i] : 0;
      if (v !== 0 && v === prev) {
        groups[groups.length - 1][0] += 1;
      } else if (v !== 0) {
        groups.push([1, v]);
      }
      prev = v;
    }
    return groups;
  }

  function sameClue(a, b) {
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) {
      if (a[i][0] !== b[i][0] || a[i][1] !== b[i][1]) return false;
    }
    return true;
  }

  // A cell of a line is a player's state (UNKNOWN, EMPTY or a colour k >= 1)
  // or, inside the hint's reasoning, the sorted list of states it can still
  // take (0 for background).
  function mayBeBackground(s) {
    return typeof s === "number" ? s <= 0 : s[0] === 0;
  }

  function mayBe(s, colour) {
    return typeof s === "number" ? s === UNKNOWN || s === colour : s.indexOf(colour) >= 0;
  }

  /** blocked[i]: how many of the cells [0, i) cannot hold `colour` (painted another colour, or dotted). */
  function blockedCounts(cells, colour) {
    var blocked = new Int32Array(cells.length + 1);
    for (var i = 0; i < cells.length; i++) {
      blocked[i + 1] = blocked[i] + (mayBe(cells[i], colour) ? 0 : 1);
    }
    return blocked;
  }

  /**
   * The left-to-right half of the line dynamic programme, over (groups
   * placed, cells used).  After the first j groups of `clue` are placed in
   * cells [0, i), consistently with the painted cells (which keep their
   * colour) and the dots (which stay background):
   *   end[j * (n + 1) + i]: some placement has group j - 1 ending at cell i - 1;
   *   gap[j * (n + 1) + i]: some placement has cell i - 1 background (or i == 0).
   * Groups of one colour need a background cell between them, groups of
   * different colours may touch.  O(groups * cells) time and memory, in
   * two flat arrays (one allocation each: a hint runs this 400 times).
   */
  function forwardPass(cells, clue) {
    var n = cells.length;
    var m = clue.length;
    var w = n + 1;
    var i, j;
    var end = new Uint8Array((m + 1) * w);
    var gap = new Uint8Array((m + 1) * w);
    gap[0] = 1;
    for (i = 0; i < n; i++) gap[i + 1] = gap[i] && mayBeBackground(cells[i]) ? 1 : 0;
    var blockedBy = {};
    for (j = 1; j <= m; j++) {
      var len = clue[j - 1][0];
      var colour = clue[j - 1][1];
      var touches = j >= 2 && clue[j - 2][1] !== colour; // may follow the previous group directly
      var blocked = blockedBy[colour] || (blockedBy[colour] = blockedCounts(cells, colour));
      var prev = (j - 1) * w;
      var here = j * w;
      for (i = 0; i + len <= n; i++) {
        if ((gap[prev + i] || (touches && end[prev + i])) && blocked[i + len] === blocked[i]) end[here + i + len] = 1;
      }
      for (i = 0; i < n; i++) {
        if ((end[here + i] || gap[here + i]) && mayBeBackground(cells[i])) gap[here + i + 1] = 1;
      }
    }
    return { end: end, gap: gap, width: w };
  }

  /** Whether forwardPass placed every group and reached the end of the line. */
  function passFits(f, m, n) {
    return f.end[m * f.width + n] === 1 || f.gap[m * f.width + n] === 1;
  }

  /**
   * Whether the unknown cells of a line can still be filled so that it has
   * `clue`: painted cells keep their colour, dots stay background.  Reads
   * the clue only, never a solution.  O(groups * cells): forwardPass.
   */
  function lineFits(cells, clue) {
    return passFits(forwardPass(cells, clue), clue.length, cells.length);
  }

  /**
   * What the clue and the player's marks still allow in each cell of a line.
   *
   * For every cell, the sorted list of states it takes in at least one
   * completion of the line that has `clue` and keeps the player's marks:
   * 0 for background (a dot or an unknown cell left empty), k >= 1 for
   * colour k.  A marked cell's list is its own state; an unknown cell whose
   * list has a single state is forced.  null when no completion exists.
   * A cell may also be given as the sorted list of states it can still take
   * (the hint's reasoning across lines); its answer is part of that list.
   * `nColours` is the palette's length (colours 1 .. nColours - 1), as
   * the puzzle's clues use.
   *
   * Forward and backward passes (the backward one is the forward one over
   * the reversed line and clue) meet at each cell: O(groups * cells +
   * colours * cells) per line, so a hint scanning all 200 lines of a
   * 100x100 puzzle stays in milliseconds whatever the palette.  Trying each
   * state of each unknown cell with lineFits would cost cells * colours
   * times as much: about 10^9 steps for such a puzzle with 10 colours.
   */
  function lineDeductions(cells, clue, nColours) {
    var n = cells.length;
    var m = clue.length;
    var i, j;
    var w = n + 1;
    var f = forwardPass(cells, clue);
    if (!passFits(f, m, n)) return null;
    var rev = Array.prototype.slice.call(cells).reverse();
    var b = forwardPass(rev, clue.slice().reverse());
    // groups j.. fill cells [i, n) with group j starting at cell i / with cell i background
    function startsAt(jj, ii) {
      return jj < m && b.end[(m - jj) * w + n - ii] === 1;
    }
    function bgAt(jj, ii) {
      return b.gap[(m - jj) * w + n - ii] === 1;
    }
    var bg = new Uint8Array(n);
    for (i = 0; i < n; i++) {
      if (!mayBeBackground(cells[i])) continue;
      for (j = 0; j <= m && !bg[i]; j++) {
        if ((f.end[j * w + i] || f.gap[j * w + i]) && (startsAt(j, i + 1) || bgAt(j, i + 1))) bg[i] = 1;
      }
    }
    // runs of each colour every group can occupy, summed with a difference array
    var cover = new Array(nColours); // colour -> difference array, for the clue's colours
    var blockedBy = {};
    for (j = 0; j < m; j++) {
      var len = clue[j][0];
      var colour = clue[j][1];
      var blocked = blockedBy[colour] || (blockedBy[colour] = blockedCounts(cells, colour));
      var prevTouches = j >= 1 && clue[j - 1][1] !== colour;
      var nextTouches = j + 1 < m && clue[j + 1][1] !== colour;
      var diff = cover[colour] || (cover[colour] = new Int32Array(n + 1));
      for (var st = 0; st + len <= n; st++) {
        if (blocked[st + len] !== blocked[st]) continue;
        if (!(f.gap[j * w + st] || (prevTouches && f.end[j * w + st]))) continue;
        if (!(bgAt(j + 1, st + len) || (nextTouches && startsAt(j + 1, st + len)))) continue;
        diff[st] += 1;
        diff[st + len] -= 1;
      }
    }
    var out = new Array(n);
    for (i = 0; i < n; i++) out[i] = bg[i] ? [0] : [];
    for (var c = 1; c < nColours; c++) {
      var d = cover[c];
      if (!d) continue;
      var run = 0;
      for (i = 0; i < n; i++) {
        run += d[i];
        if (run > 0) out[i].push(c);
      }
    }
    return out;
  }

  function colourCounts(groups, counts) {
    for (var g = 0; g < groups.length; g++) {
      counts[groups[g][1]] = (counts[groups[g][1]] || 0) + groups[g][0];
    }
    return counts;
  }

  /**
   * "done" when the painted cells have exactly the clue (dots and unknowns
   * both count as background); "wrong" when they do not and the line is
   * full: no unknown cell left, or every colour already painted as many
   * times as the clue holds (so painting more cannot help), or some colour
   * painted more often than that; "open" otherwise.
   */
  function lineStatus(cells, clue) {
    var derived = lineClue(cells);
    if (sameClue(derived, clue)) return "done";
    var unknown = 0;
    for (var i = 0; i < cells.length; i++) if (cells[i] === UNKNOWN) unknown++;
    if (unknown === 0) return "wrong";
    var want = colourCounts(clue, {});
    var have = colourCounts(derived, {});
    var full = true;
    var c;
    for (c in have) if ((want[c] || 0) < have[c]) return "wrong";
    for (c in want) if ((have[c] || 0) < want[c]) full = false;
    return full ? "wrong" : "open";
  }

  function row(grid, width, r) {
    return Array.prototype.slice.call(grid, r * width, (r + 1) * width);
  }

  function column(grid, width, height, c) {
    var out = new Array(height);
    for (var r = 0; r < height; r++) out[r] = grid[r * width + c];
    return out;
  }

  /** Every line of the grid against the puzzle: statuses, counts, solved. */
  function gridReport(puzzle, grid) {
    var w = puzzle.width;
    var h = puzzle.height;
    var rows = [];
    var cols = [];
    var wrong = [];
    var unfit = [];
    var matched = 0;
    function one(cells, clue, name, out) {
      var status = lineStatus(cells, clue);
      out.push(status);
      if (status === "done") matched++;
      if (status === "wrong") wrong.push(name);
      if (!lineFits(cells, clue)) unfit.push(name);
    }
    for (var r = 0; r < h; r++) one(row(grid, w, r), puzzle.rows[r], "row " + (r + 1), rows);
    for (var c = 0; c < w; c++) one(column(grid, w, h, c), puzzle.cols[c], "column " + (c + 1), cols);
    return { rows: rows, cols: cols, solved: matched === w + h, wrong: wrong, unfit: unfit };
  }

  /** Whether every row and column of the grid has its clue (unique puzzles: the picture). */
  function isSolved(puzzle, grid) {
    var w = puzzle.width;
    var h = puzzle.height;
    for (var r = 0; r < h; r++) if (!sameClue(lineClue(row(grid, w, r)), puzzle.rows[r])) return false;
    for (var c = 0; c < w; c++) if (!sameClue(lineClue(column(grid, w, h, c)), puzzle.cols[c])) return false;
    return true;
  }

  /**
   * One step of line logic from the player's marks, for the Hint button.
   *
   * Every row and column is run through lineDeductions.  Returns
   *   {contradiction: L} for the first line (rows top to bottom, then
   *     columns left to right) that can no longer be completed: the player
   *     made a mistake there or in a crossing line, and the page, which
   *     does not know the solution, cannot say which cell;
   *   else {line: L, cells: [[i, state], ...]} for the line whose clue
   *     forces the most unknown cells (ties: rows before columns, then the
   *     lower index), with i the cell's index in the flat grid and state
   *     the colour k >= 1 to paint or EMPTY (-1, a dot), in line order;
   *   else deepHint's answer: no single line decides a cell from the marks
   *     alone, but lines may rule colours out of cells (only in colour
   *     puzzles, where a cell has more than two possible states).
   * L is {kind: "row" | "column", index: 0-based}.  The cells follow from
   * the line's clue and the marks already in it, so they are right
   * whenever those marks are.
   */
  function hint(puzzle, grid) {
    var w = puzzle.width;
    var h = puzzle.height;
    var nColours = puzzle.palette.length;
    var best = null;
    function scan(kind, index, cells, clue, gridIndex) {
      var unknown = false;
      for (var i = 0; i < cells.length && !unknown; i++) unknown = cells[i] === UNKNOWN;
      if (!unknown) return lineFits(cells, clue); // nothing to deduce, only to check
      var possible = lineDeductions(cells, clue, nColours);
      if (possible === null) return false;
      var forced = [];
      for (i = 0; i < cells.length; i++) {
        if (cells[i] === UNKNOWN && possible[i].length === 1) {
          forced.push([gridIndex(i), possible[i][0] === 0 ? EMPTY : possible[i][0]]);
        }
      }
      if (forced.length && (best === null || forced.length > best.cells.length)) {
        best = { line: { kind: kind, index: index }, cells: forced };
      }
      return true;
    }
    var r, c;
    for (r = 0; r < h; r++) {
      var rowStart = r * w;
      var rowOk = scan("row", r, row(grid, w, r), puzzle.rows[r], function (i) {
        return rowStart + i;
      });
      if (!rowOk) return { contradiction: { kind: "row", index: r } };
    }
    for (c = 0; c < w; c++) {
      var col = c;
      var colOk = scan("column", c, column(grid, w, h, c), puzzle.cols[c], function (i) {
        return i * w + col;
      });
      if (!colOk) return { contradiction: { kind: "column", index: c } };
    }
    if (best !== null || nColours <= 2) return best; // two states: a narrowed cell is decided
    return deepHint(puzzle, grid);
  }

  /**
   * The hint when no line decides a cell from the player's marks alone:
   * line logic over what each cell can still be, as rofl's solver does it.
   *
   * Every cell starts with the states the player's mark allows (all of
   * them when unknown).  Lines are taken from a queue -- first every row
   * top to bottom then every column left to right, then each crossing line
   * of a cell whose list shrank, once at a time -- and each line's cells
   * are narrowed to lineDeductions.  Returns, for the first line that
   * leaves an unknown cell a single state,
   *   {line: L, cells: [[i, state], ...], using: [L, ...]}
   * with the cells as in hint and `using` the other lines that ruled
   * states out of this line's cells before (rows first, then by index):
   * what the player must have worked out to see it.  {contradiction: L,
   * using: [L, ...]} for the first line with no completion on the way (a
   * mistake in the marks: in L or in those lines); null when the reasoning
   * ends with no new cell decided.
   */
  function deepHint(puzzle, grid) {
    var w = puzzle.width;
    var h = puzzle.height;
    var nColours = puzzle.palette.length;
    var every = [];
    for (var k = 0; k < nColours; k++) every.push(k);
    var may = new Array(w * h);
    var by = new Array(w * h); // the lines that narrowed each cell
    for (var i = 0; i < w * h; i++) {
      var s = grid[i];
      may[i] = s === UNKNOWN ? every : [s === EMPTY ? 0 : s];
      by[i] = null;
    }
    var nLines = h + w;
    var queued = new Uint8Array(nLines).fill(1);
    var queue = [];
    for (var q = 0; q < nLines; q++) queue.push(q);
    function cellsOf(line) {
      var out = [];
      if (line < h) for (var c = 0; c < w; c++) out.push(line * w + c);
      else for (var r = 0; r < h; r++) out.push(r * w + line - h);
      return out;
    }
    function named(line) {
      return line < h ? { kind: "row", index: line } : { kind: "column", index: line - h };
    }
    /** The lines other than `line` that narrowed the cells `idx`, rows first. */
    function usedBy(idx, line) {
      var seen = {};
      idx.forEach(function (cell) {
        (by[cell] || []).forEach(function (other) {
          if (other !== line) seen[other] = true;
        });
      });
      return Object.keys(seen)
        .map(Number)
        .sort(function (a, b) {
          return a - b;
        })
        .map(named);
    }
    for (var head = 0; head < queue.length; head++) {
      var line = queue[head];
      queued[line] = 0;
      var idx = cellsOf(line);
      var possible = lineDeductions(
        idx.map(function (j) {
          return may[j];
        }),
        line < h ? puzzle.rows[line] : puzzle.cols[line - h],
        nColours
      );
      if (possible === null) return { contradiction: named(line), using: usedBy(idx, line) };
      var decided = [];
      for (var p = 0; p < idx.length; p++) {
        var cell = idx[p];
        if (possible[p].length === may[cell].length) continue;
        may[cell] = possible[p];
        (by[cell] || (by[cell] = [])).push(line);
        if (grid[cell] === UNKNOWN && possible[p].length === 1) {
          decided.push([cell, possible[p][0] === 0 ? EMPTY : possible[p][0]]);
        }
        var crossing = line < h ? h + (cell % w) : Math.floor(cell / w);
        if (!queued[crossing]) {
          queued[crossing] = 1;
          queue.push(crossing);
        }
      }
      if (decided.length) return { line: named(line), cells: decided, using: usedBy(idx, line) };
    }
    return null;
  }

  /** FNV-1a, 64 bits, of the UTF-16 code units (ASCII here) of `text`, as 16 hex digits. */
  function fnv1a64(text) {
    var mask = (BigInt(1) << BigInt(64)) - BigInt(1);
    var prime = BigInt("0x100000001b3");
    var h = BigInt("0xcbf29ce484222325");
    for (var i = 0; i < text.length; i++) {
      h = ((h ^ BigInt(text.charCodeAt(i))) * prime) & mask;
    }
    return h.toString(16).padStart(16, "0");
  }

  /** The localStorage key of a puzzle: a hash of its size, colour count and clues. */
  function storageKey(puzzle) {
    var canonical = JSON.stringify([puzzle.width, puzzle.height, puzzle.palette.length, puzzle.rows, puzzle.cols]);
    return "rofl-page:" + fnv1a64(canonical);
  }

  /** A grid as text, one character a cell: "." unknown, "-" dot, "1".."o" colours 1-63. */
  function encodeCells(grid) {
    var out = new Array(grid.length);
    for (var i = 0; i < grid.length; i++) {
      var v = grid[i];
      out[i] = v === UNKNOWN ? "." : v === EMPTY ? "-" : String.fromCharCode(48 + v);
    }
    return out.join("");
  }

  /** The inverse of encodeCells, or null when the text does not fit this puzzle. */
  function decodeCells(text, size, nColours) {
    if (typeof text !== "string" || text.length !== size) return null;
    var out = new Array(size);
    for (var i = 0; i < size; i++) {
      var ch = text.charAt(i);
      if (ch === ".") out[i] = UNKNOWN;
      else if (ch === "-") out[i] = EMPTY;
      else {
        var v = text.charCodeAt(i) - 48;
        if (!(v >= 1 && v < nColours)) return null;
        out[i] = v;
      }
    }
    return out;
  }

  /**
   * The cells a drag from (r0, c0) to (r1, c1) covers: a straight run along
   * the row or the column of its start, whichever the pointer moved further
   * along (the row on a tie), from the start to the pointer.
   */
  function strokeCells(r0, c0, r1, c1) {
    var out = [];
    var step;
    if (Math.abs(c1 - c0) >= Math.abs(r1 - r0)) {
      step = c1 >= c0 ? 1 : -1;
      for (var c = c0; c !== c1 + step; c += step) out.push([r0, c]);
    } else {
      step = r1 >= r0 ? 1 : -1;
      for (var r = r0; r !== r1 + step; r += step) out.push([r, c0]);
    }
    return out;
  }

  /** What a stroke sets: the tool's state, or unknown when it starts on a cell the tool already made. */
  function strokeTarget(startState, tool) {
    return startState === tool ? UNKNOWN : tool;
  }

  /**
   * Whether a stroke from a cell in state `from` to `to` changes a cell in
   * state `state`: cells like the first one always; unknown cells too when
   * the stroke paints or marks.  So a drag never overwrites other work, and
   * clearing a run leaves its neighbours' dots alone.
   */
  function strokeChanges(state, from, to) {
    if (state === to) return false;
    return state === from || (to !== UNKNOWN && state === UNKNOWN);
  }

  /** "m:ss", or "h:mm:ss" from an hour on. */
  function formatTime(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    var ss = (s < 10 ? "0" : "") + s;
    if (h > 0) return h + ":" + (m < 10 ? "0" : "") + m + ":" + ss;
    return m + ":" + ss;
  }

  /** Black or white, whichever reads better on the colour "#rrggbb". */
  function textOn(hex) {
    var r = parseInt(hex.slice(1, 3), 16);
    var g = parseInt(hex.slice(3, 5), 16);
    var b = parseInt(hex.slice(5, 7), 16);
    return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#000000" : "#ffffff";
  }

  var logic = {
    UNKNOWN: UNKNOWN,
    EMPTY: EMPTY,
    lineClue: lineClue,
    sameClue: sameClue,
    lineFits: lineFits,
    lineStatus: lineStatus,
    gridReport: gridReport,
    isSolved: isSolved,
    lineDeductions: lineDeductions,
    hint: hint,
    deepHint: deepHint,
    fnv1a64: fnv1a64,
    storageKey: storageKey,
    encodeCells: encodeCells,
    decodeCells: decodeCells,
    strokeCells: strokeCells,
    strokeTarget: strokeTarget,
    strokeChanges: strokeChanges,
    formatTime: formatTime,
    textOn: textOn,
  };
  root.RoflPage = logic;

  if (typeof document === "undefined") return;

  // ------------------------------------------------------------------- page

  var HISTORY_LIMIT = 2000;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    if (attrs) for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function start() {
    var puzzle = JSON.parse(document.getElementById("rofl-puzzle").textContent);
    var W = puzzle.width;
    var H = puzzle.height;
    var palette = puzzle.palette;
    var nColours = palette.length;
    var multi = nColours > 2;
    var grid = new Array(W * H).fill(UNKNOWN);
    var key = storageKey(puzzle);
    var undoStack = [];
    var redoStack = [];
    var tool = 1;
    var elapsed = 0; // seconds before the current running span
    var runningSince = null; // Date.now() when the timer last started
    var solved = false;
    var stroke = null;
    var cursor = { r: 0, c: 0, shown: false };
    var hover = { r: -1, c: -1 };
    var rowStatus = new Array(H).fill("open");
    var colStatus = new Array(W).fill("open");
    var unfitRows = {};
    var unfitCols = {};

    var board = document.getElementById("board");
    var statusLine = document.getElementById("status");
    var timerEl = document.getElementById("timer");
    var toolsEl = document.getElementById("tools");
    var undoBtn = document.getElementById("undo");
    var redoBtn = document.getElementById("redo");
    var applyBtn = document.getElementById("apply");
    var shownHint = null; // the hint on show: its answer and the elements it marked
    document.documentElement.style.setProperty("--bg", palette[0]);

    // ------------------------------------------------------------ the table
    var cells = new Array(W * H);
    var rowHeads = new Array(H);
    var colHeads = new Array(W);
    var trs = new Array(H);
    var table = el("table", { class: "grid" });
    var head = el("tr", { class: "colclues" });
    head.appendChild(el("td", { class: "corner" }));

    function clueNumbers(container, clue) {
      if (clue.length === 0) {
        container.appendChild(el("span", { class: "n zero" }, "0"));
        return;
      }
      for (var g = 0; g < clue.length; g++) {
        var span = el("span", { class: "n" }, String(clue[g][0]));
        if (multi) {
          var colour = palette[clue[g][1]];
          span.className = "n chip";
          span.style.background = colour;
          span.style.color = textOn(colour);
        }
        container.appendChild(span);
      }
    }

    function clueLabel(clue) {
      if (clue.length === 0) return "0";
      return clue
        .map(function (g) {
          return multi ? g[0] + " of colour " + g[1] : String(g[0]);
        })
        .join(", ");
    }

    for (var c = 0; c < W; c++) {
      var th = el("th", { scope: "col", class: "cc" });
      if ((c + 1) % 5 === 0 && c + 1 < W) th.classList.add("b5");
      var box = el("div", { class: "nums" });
      box.appendChild(el("span", { class: "flag", "aria-hidden": "true" }, "\u2717"));
      clueNumbers(box, puzzle.cols[c]);
      th.appendChild(box);
      th.dataset.label = "column " + (c + 1) + ": " + clueLabel(puzzle.cols[c]);
      colHeads[c] = th;
      head.appendChild(th);
    }
    table.appendChild(head);
    for (var r = 0; r < H; r++) {
      var tr = el("tr");
      if ((r + 1) % 5 === 0 && r + 1 < H) tr.classList.add("b5");
      var rh = el("th", { scope: "row", class: "rc" });
      var rbox = el("div", { class: "nums" });
      rbox.appendChild(el("span", { class: "flag", "aria-hidden": "true" }, "\u2717"));
      clueNumbers(rbox, puzzle.rows[r]);
      rh.appendChild(rbox);
      rh.dataset.label = "row " + (r + 1) + ": " + clueLabel(puzzle.rows[r]);
      rowHeads[r] = rh;
      tr.appendChild(rh);
      for (c = 0; c < W; c++) {
        var td = el("td", { class: "cell" });
        if ((c + 1) % 5 === 0 && c + 1 < W) td.classList.add("b5");
        td.dataset.i = String(r * W + c);
        cells[r * W + c] = td;
        tr.appendChild(td);
      }
      trs[r] = tr;
      table.appendChild(tr);
    }
    board.appendChild(table);

    // ----------------------------------------------------------- tool bar
    var toolButtons = {};
    function addTool(value, label, aria) {
      var b = el("button", { type: "button", class: "tool", "aria-pressed": "false", "aria-label": aria, title: aria });
      var sw = el("span", { class: "swatch", "aria-hidden": "true" });
      if (value > 0) sw.style.background = palette[value];
      else sw.classList.add("dot");
      b.appendChild(sw);
      b.appendChild(el("span", { class: "key" }, label));
      b.addEventListener("click", function () {
        selectTool(value);
      });
      toolButtons[value] = b;
      toolsEl.appendChild(b);
    }
    for (var k = 1; k < nColours; k++) {
      var shortcut = k <= 9 ? String(k) : "";
      var name = nColours > 2 ? "colour " + k + " (" + palette[k] + ")" : "fill";
      addTool(k, shortcut, "Paint " + name + (shortcut ? ", key " + shortcut : ""));
    }
    addTool(EMPTY, "X", "Mark cells known empty, key X");

    function selectTool(value) {
      tool = value;
      for (var v in toolButtons) toolButtons[v].setAttribute("aria-pressed", String(Number(v) === value));
    }
    selectTool(1);

    // ------------------------------------------------------------- drawing
    function paintCell(i) {
      var td = cells[i];
      var v = grid[i];
      td.classList.toggle("x", v === EMPTY);
      td.classList.toggle("f", v > 0);
      td.style.background = v > 0 ? palette[v] : "";
    }

    function setFlag(th, status, unfit) {
      var bad = status === "wrong" || unfit;
      th.classList.toggle("done", status === "done");
      th.classList.toggle("wrong", bad);
      var note = status === "done" ? " \u2014 matches" : bad ? " \u2014 wrong" : "";
      th.setAttribute("aria-label", th.dataset.label + note);
      th.title = th.dataset.label.charAt(0).toUpperCase() + th.dataset.label.slice(1) + note;
    }

    function refreshRow(r) {
      var line = row(grid, W, r);
      rowStatus[r] = lineStatus(line, puzzle.rows[r]);
      setFlag(rowHeads[r], rowStatus[r], !!unfitRows[r]);
    }

    function refreshCol(c) {
      var line = column(grid, W, H, c);
      colStatus[c] = lineStatus(line, puzzle.cols[c]);
      setFlag(colHeads[c], colStatus[c], !!unfitCols[c]);
    }

    function refreshAll() {
      for (var i = 0; i < W * H; i++) paintCell(i);
      for (var r = 0; r < H; r++) refreshRow(r);
      for (var c = 0; c < W; c++) refreshCol(c);
      afterChange();
    }

    /** Set cells (index -> state), redraw them and their lines' clues. */
    function setCells(indices, values) {
      clearHint(); // any edit makes a hint stale
      var rowsTouched = {};
      var colsTouched = {};
      for (var n = 0; n < indices.length; n++) {
        var i = indices[n];
        grid[i] = values[n];
        paintCell(i);
        var rr = Math.floor(i / W);
        var cc = i % W;
        rowsTouched[rr] = true;
        colsTouched[cc] = true;
        // a line the check flagged stays flagged until it changes
        delete unfitRows[rr];
        delete unfitCols[cc];
      }
      for (var r in rowsTouched) refreshRow(Number(r));
      for (var c in colsTouched) refreshCol(Number(c));
    }

    function afterChange() {
      var nowSolved = rowStatus.every(isDone) && colStatus.every(isDone);
      if (nowSolved && !solved) {
        solved = true;
        stopTimer();
        say("Solved in " + formatTime(elapsed) + "!");
      } else if (!nowSolved && solved) {
        solved = false;
        startTimer();
      }
      board.classList.toggle("solved", solved);
      document.body.classList.toggle("is-solved", solved);
      undoBtn.disabled = undoStack.length === 0;
      redoBtn.disabled = redoStack.length === 0;
      save();
    }

    function isDone(s) {
      return s === "done";
    }

    // ------------------------------------------------------------- history
    function record(action) {
      if (action.idx.length === 0) return;
      undoStack.push(action);
      if (undoStack.length > HISTORY_LIMIT) undoStack.shift();
      redoStack = [];
    }

    function undo() {
      var a = undoStack.pop();
      if (!a) return;
      redoStack.push(a);
      setCells(a.idx, a.before);
      afterChange();
    }

    function redo() {
      var a = redoStack.pop();
      if (!a) return;
      undoStack.push(a);
      setCells(a.idx, a.after);
      afterChange();
    }

    function clearAll() {
      var idx = [];
      var before = [];
      var after = [];
      for (var i = 0; i < W * H; i++) {
        if (grid[i] !== UNKNOWN) {
          idx.push(i);
          before.push(grid[i]);
          after.push(UNKNOWN);
        }
      }
      unfitRows = {};
      unfitCols = {};
      record({ idx: idx, before: before, after: after });
      setCells(idx, after);
      for (var r = 0; r < H; r++) refreshRow(r);
      for (var c = 0; c < W; c++) refreshCol(c);
      elapsed = 0;
      runningSince = null;
      solved = false;
      startTimer();
      say(idx.length ? "Cleared; Undo brings the cells back." : "The grid is already empty.");
      afterChange();
    }

    function check() {
      clearHint();
      var report = gridReport(puzzle, grid);
      unfitRows = {};
      unfitCols = {};
      report.unfit.forEach(function (name) {
        var parts = name.split(" ");
        var n = Number(parts[1]) - 1;
        if (parts[0] === "row") unfitRows[n] = true;
        else unfitCols[n] = true;
      });
      for (var r = 0; r < H; r++) refreshRow(r);
      for (var c = 0; c < W; c++) refreshCol(c);
      if (report.solved) {
        say("Solved! Every row and column matches its clue.");
      } else if (report.unfit.length) {
        var n = report.unfit.length;
        var list = report.unfit.slice(0, 8).join(", ") + (n > 8 ? ", \u2026" : "");
        say(
          n === 1
            ? "1 line is wrong: it cannot match its clue as it stands: " + list + "."
            : n + " lines are wrong: they cannot match their clues as they stand: " + list + "."
        );
      } else {
        var left = report.rows.concat(report.cols).filter(function (s) {
          return s !== "done";
        }).length;
        say("No mistakes so far; " + left + (left === 1 ? " line" : " lines") + " still to finish.");
      }
    }

    // ---------------------------------------------------------------- hints
    function lineName(line) {
      return (line.kind === "row" ? "Row " : "Column ") + (line.index + 1);
    }

    /** "rows 1, 2 and 5 and column 3": lines named for a message, at most six numbers of each kind. */
    function lineList(lines) {
      function and(words) {
        return words.length <= 1 ? words.join("") : words.slice(0, -1).join(", ") + " and " + words[words.length - 1];
      }
      var parts = [];
      ["row", "column"].forEach(function (kind) {
        var numbers = lines
          .filter(function (l) {
            return l.kind === kind;
          })
          .map(function (l) {
            return String(l.index + 1);
          });
        if (!numbers.length) return;
        if (numbers.length > 6) numbers = numbers.slice(0, 5).concat([numbers.length - 5 + " more"]);
        parts.push(kind + (numbers.length > 1 ? "s " : " ") + and(numbers));
      });
      return parts.join(" and ");
    }

    function lineCells(line) {
      var out = [];
      if (line.kind === "row") for (var c = 0; c < W; c++) out.push(cells[line.index * W + c]);
      else for (var r = 0; r < H; r++) out.push(cells[r * W + line.index]);
      return out;
    }

    function clearHint() {
      if (!shownHint) return;
      shownHint.head.classList.remove("hint-head");
      shownHint.using.forEach(function (th) {
        th.classList.remove("hint-using");
      });
      shownHint.line.forEach(function (td) {
        td.classList.remove("hint-line");
      });
      shownHint.marked.forEach(function (td) {
        td.classList.remove("hint-fill", "hint-empty");
        td.style.removeProperty("--hint");
      });
      applyBtn.hidden = true;
      shownHint = null;
    }

    /** Work out a hint from the player's marks and show it: the line, the cells it decides, a message. */
    function showHint() {
      clearHint();
      if (solved) {
        say("Solved in " + formatTime(elapsed) + " \u2014 there is nothing left to find.");
        return;
      }
      var answer = hint(puzzle, grid);
      if (answer === null) {
        say("Line logic gives no new cell from here: the rest needs reasoning beyond single lines, or a mark is wrong.");
        return;
      }
      var line = answer.line || answer.contradiction;
      var head = line.kind === "row" ? rowHeads[line.index] : colHeads[line.index];
      var using = (answer.using || []).map(function (other) {
        return other.kind === "row" ? rowHeads[other.index] : colHeads[other.index];
      });
      shownHint = { answer: answer, head: head, line: lineCells(line), marked: [], using: using };
      head.classList.add("hint-head");
      using.forEach(function (th) {
        th.classList.add("hint-using");
      });
      shownHint.line.forEach(function (td) {
        td.classList.add("hint-line");
      });
      if (answer.contradiction) {
        // flagged like Check does, until the line changes
        if (line.kind === "row") {
          unfitRows[line.index] = true;
          refreshRow(line.index);
        } else {
          unfitCols[line.index] = true;
          refreshCol(line.index);
        }
        if (answer.using && answer.using.length) {
          say(
            lineName(line) + " cannot be completed with the colours that " + lineList(answer.using) +
              " rule out of its cells (outlined) \u2014 a mark in these lines is wrong (Undo steps back)."
          );
        } else {
          say(lineName(line) + " cannot be completed as it stands \u2014 check it (Undo steps back).");
        }
        head.scrollIntoView({ block: "nearest", inline: "nearest" });
        return;
      }
      var fill = 0;
      answer.cells.forEach(function (cell) {
        var td = cells[cell[0]];
        if (cell[1] === EMPTY) {
          td.classList.add("hint-empty");
        } else {
          td.classList.add("hint-fill");
          td.style.setProperty("--hint", palette[cell[1]]);
          fill++;
        }
        shownHint.marked.push(td);
      });
      applyBtn.hidden = false;
      var n = answer.cells.length;
      var parts = [];
      if (fill) parts.push(fill + " to paint");
      if (n - fill) parts.push(n - fill + " empty");
      var from = " from its clue";
      if (answer.using) {
        // colour puzzles: the crossing lines ruled some colours out of its cells first
        from += " and the colours that " + lineList(answer.using) + " rule out of its cells (outlined)";
      }
      say(
        lineName(line) + ": " + n + (n === 1 ? " cell follows" : " cells follow") + from +
          " (" + parts.join(", ") + ") \u2014 press Hint again or Apply to fill " + (n === 1 ? "it." : "them.")
      );
      shownHint.marked[0].scrollIntoView({ block: "nearest", inline: "nearest" });
    }

    /** Fill the cells of the hint on show, as one undoable step. */
    function applyHint() {
      var answer = shownHint.answer;
      var idx = [];
      var before = [];
      var after = [];
      answer.cells.forEach(function (cell) {
        if (grid[cell[0]] !== UNKNOWN) return;
        idx.push(cell[0]);
        before.push(UNKNOWN);
        after.push(cell[1]);
      });
      record({ idx: idx, before: before, after: after });
      setCells(idx, after);
      startTimer();
      afterChange();
      if (!solved) {
        var n = idx.length;
        say("Filled " + n + (n === 1 ? " cell" : " cells") + " in " + lineName(answer.line).toLowerCase() +
          "; Undo takes " + (n === 1 ? "it" : "them") + " back.");
      }
    }

    /** The Hint button and H: show a hint, or fill the one on show. */
    function hintPress() {
      if (shownHint && shownHint.answer.cells) applyHint();
      else showHint();
    }

    // --------------------------------------------------------------- timer
    function now() {
      return Date.now();
    }
    function seconds() {
      return elapsed + (runningSince === null ? 0 : (now() - runningSince) / 1000);
    }
    function startTimer() {
      if (runningSince === null && !solved && !document.hidden) runningSince = now();
    }
    function stopTimer() {
      if (runningSince !== null) {
        elapsed += (now() - runningSince) / 1000;
        runningSince = null;
      }
    }
    function showTime() {
      timerEl.textContent = formatTime(seconds());
    }
    setInterval(showTime, 1000);
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) {
        stopTimer();
        save();
      } else {
        startTimer();
      }
    });

    // -------------------------------------------------------------- storage
    var storage = null;
    try {
      storage = window.localStorage;
      storage.getItem(key);
    } catch (e) {
      storage = null; // disabled or blocked for file:// pages: play without saving
    }

    function save() {
      if (!storage) return;
      try {
        storage.setItem(key, JSON.stringify({ v: 1, cells: encodeCells(grid), time: seconds(), solved: solved }));
      } catch (e) {
        /* quota or privacy mode: keep playing */
      }
    }

    function restore() {
      if (!storage) return;
      var saved;
      try {
        saved = JSON.parse(storage.getItem(key) || "null");
      } catch (e) {
        return;
      }
      if (!saved || saved.v !== 1) return;
      var back = decodeCells(saved.cells, W * H, nColours);
      if (!back) return;
      grid = back;
      if (typeof saved.time === "number" && isFinite(saved.time) && saved.time >= 0) elapsed = saved.time;
    }
    window.addEventListener("pagehide", save);

    // --------------------------------------------------------------- status
    function say(text) {
      statusLine.textContent = text;
    }

    // ---------------------------------------------------------- highlighting
    function setHover(r, c) {
      if (r === hover.r && c === hover.c) return;
      if (hover.r >= 0) {
        trs[hover.r].classList.remove("hl");
        rowHeads[hover.r].classList.remove("hl");
      }
      if (hover.c >= 0) {
        colHeads[hover.c].classList.remove("hl");
        for (var rr = 0; rr < H; rr++) cells[rr * W + hover.c].classList.remove("hlc");
      }
      hover = { r: r, c: c };
      if (r >= 0) {
        trs[r].classList.add("hl");
        rowHeads[r].classList.add("hl");
      }
      if (c >= 0) {
        colHeads[c].classList.add("hl");
        for (rr = 0; rr < H; rr++) cells[rr * W + c].classList.add("hlc");
      }
      var where = document.getElementById("where");
      where.textContent = r >= 0 ? "row " + (r + 1) + ", column " + (c + 1) : "";
    }

    function showCursor(show) {
      var i = cursor.r * W + cursor.c;
      for (var n = 0; n < cells.length; n++) if (n !== i) cells[n].classList.remove("cur");
      cells[i].classList.toggle("cur", show);
      cursor.shown = show;
    }

    // ---------------------------------------------------------------- mouse
    var rowEdges = null;
    var colEdges = null;

    function measure() {
      colEdges = [];
      rowEdges = [];
      for (var c = 0; c < W; c++) colEdges.push(cells[c].getBoundingClientRect().left);
      for (var r = 0; r < H; r++) rowEdges.push(cells[r * W].getBoundingClientRect().top);
    }

    function nearest(edges, x) {
      var lo = 0;
      var hi = edges.length - 1;
      if (x < edges[0]) return 0;
      while (lo < hi) {
        var mid = (lo + hi + 1) >> 1;
        if (edges[mid] <= x) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    }

    function cellOf(target) {
      var td = target && target.closest ? target.closest("td.cell") : null;
      if (!td || !board.contains(td)) return null;
      var i = Number(td.dataset.i);
      return { r: Math.floor(i / W), c: i % W };
    }

    function beginStroke(r, c, useTool, pointerId) {
      var i = r * W + c;
      stroke = {
        r0: r,
        c0: c,
        from: grid[i],
        to: strokeTarget(grid[i], useTool),
        before: {}, // index -> state before the stroke, for cells it changed
        pointerId: pointerId,
        r1: r,
        c1: c,
      };
      extendStroke(r, c);
    }

    function extendStroke(r, c) {
      stroke.r1 = r;
      stroke.c1 = c;
      var want = {};
      strokeCells(stroke.r0, stroke.c0, r, c).forEach(function (rc) {
        want[rc[0] * W + rc[1]] = true;
      });
      var idx = [];
      var vals = [];
      var i;
      for (i in stroke.before) {
        if (!want[i]) {
          idx.push(Number(i));
          vals.push(stroke.before[i]);
          delete stroke.before[i];
        }
      }
      for (i in want) {
        i = Number(i);
        if (!(i in stroke.before) && strokeChanges(grid[i], stroke.from, stroke.to)) {
          stroke.before[i] = grid[i];
          idx.push(i);
          vals.push(stroke.to);
        }
      }
      if (idx.length) setCells(idx, vals);
      var n = Object.keys(want).length;
      document.getElementById("where").textContent =
        "row " + (r + 1) + ", column " + (c + 1) + (n > 1 ? " \u2014 " + n + " cells" : "");
    }

    function endStroke() {
      if (!stroke) return;
      var idx = [];
      var before = [];
      var after = [];
      for (var i in stroke.before) {
        idx.push(Number(i));
        before.push(stroke.before[i]);
        after.push(grid[Number(i)]);
      }
      stroke = null;
      if (idx.length) {
        record({ idx: idx, before: before, after: after });
        startTimer();
      }
      afterChange();
    }

    board.addEventListener("pointerdown", function (e) {
      var at = cellOf(e.target);
      if (!at || stroke) return;
      var useTool;
      if (e.button === 0 && !e.ctrlKey) useTool = e.shiftKey ? EMPTY : tool;
      else if (e.button === 2 || (e.button === 0 && e.ctrlKey)) useTool = EMPTY;
      else return;
      e.preventDefault();
      measure();
      try {
        board.setPointerCapture(e.pointerId);
      } catch (err) {
        /* not capturable (synthetic event): fine */
      }
      showCursor(false);
      beginStroke(at.r, at.c, useTool, e.pointerId);
    });

    board.addEventListener("pointermove", function (e) {
      if (stroke && e.pointerId === stroke.pointerId) {
        var r = nearest(rowEdges, e.clientY);
        var c = nearest(colEdges, e.clientX);
        setHover(r, c);
        if (r !== stroke.r1 || c !== stroke.c1) extendStroke(r, c);
        return;
      }
      var at = cellOf(e.target);
      if (at) setHover(at.r, at.c);
      else setHover(-1, -1);
    });

    function finish(e) {
      if (stroke && e.pointerId === stroke.pointerId) endStroke();
    }
    board.addEventListener("pointerup", finish);
    board.addEventListener("pointercancel", finish);
    board.addEventListener("lostpointercapture", finish);
    board.addEventListener("pointerleave", function (e) {
      if (!stroke && e.pointerType === "mouse") setHover(-1, -1);
    });
    board.addEventListener("contextmenu", function (e) {
      e.preventDefault();
    });

    // ------------------------------------------------------------- keyboard
    function applyAt(r, c, useTool) {
      var i = r * W + c;
      var to = strokeTarget(grid[i], useTool);
      var before = grid[i];
      if (before === to) return;
      record({ idx: [i], before: [before], after: [to] });
      setCells([i], [to]);
      startTimer();
      afterChange();
    }

    document.addEventListener("keydown", function (e) {
      var k = e.key;
      var mod = e.ctrlKey || e.metaKey;
      if (mod && (k === "z" || k === "Z") && !e.shiftKey) {
        e.preventDefault();
        undo();
        return;
      }
      if (mod && (k === "y" || k === "Y" || ((k === "z" || k === "Z") && e.shiftKey))) {
        e.preventDefault();
        redo();
        return;
      }
      if (mod || e.altKey) return;
      if (/^[1-9]$/.test(k) && Number(k) < nColours) {
        selectTool(Number(k));
        return;
      }
      if (k === "x" || k === "X") {
        selectTool(tool === EMPTY ? 1 : EMPTY);
        return;
      }
      if (k === "h" || k === "H") {
        e.preventDefault();
        hintPress();
        return;
      }
      if (k === "Escape" && shownHint) {
        clearHint();
        say("");
        return;
      }
      if (document.activeElement !== board) return;
      var moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (moves[k]) {
        e.preventDefault();
        cursor.r = Math.min(H - 1, Math.max(0, cursor.r + moves[k][0]));
        cursor.c = Math.min(W - 1, Math.max(0, cursor.c + moves[k][1]));
        showCursor(true);
        setHover(cursor.r, cursor.c);
      } else if (k === " " || k === "Enter") {
        e.preventDefault();
        showCursor(true);
        applyAt(cursor.r, cursor.c, tool);
      } else if (k === "." || k === "Delete" || k === "Backspace") {
        e.preventDefault();
        showCursor(true);
        if (k === ".") applyAt(cursor.r, cursor.c, EMPTY);
        else if (grid[cursor.r * W + cursor.c] !== UNKNOWN) applyAt(cursor.r, cursor.c, grid[cursor.r * W + cursor.c]);
      }
    });
    board.addEventListener("focus", function () {
      showCursor(true);
      setHover(cursor.r, cursor.c);
    });
    board.addEventListener("blur", function () {
      showCursor(false);
    });

    undoBtn.addEventListener("click", undo);
    redoBtn.addEventListener("click", redo);
    document.getElementById("check").addEventListener("click", check);
    document.getElementById("hint").addEventListener("click", hintPress);
    applyBtn.addEventListener("click", function () {
      if (shownHint && shownHint.answer.cells) applyHint();
    });
    document.getElementById("clear").addEventListener("click", clearAll);

    // ------------------------------------------------------------ cell size
    var printing = false;
    function fit() {
      var side = printing ? 24 : 28;
      document.documentElement.style.setProperty("--cell", side + "px");
      var rect = table.getBoundingClientRect();
      var availW = printing ? 680 : Math.max(200, document.documentElement.clientWidth - 32);
      var availH = printing ? 960 : Math.max(200, window.innerHeight - board.getBoundingClientRect().top - 16);
      var byW = (side * availW) / rect.width;
      var byH = (side * availH) / rect.height;
      var cell = printing ? Math.min(byW, byH) : Math.min(byW, Math.max(byH, 18));
      cell = Math.floor(Math.max(printing ? 5 : 14, Math.min(printing ? 28 : 36, cell)));
      document.documentElement.style.setProperty("--cell", cell + "px");
      // a board taller than the window scrolls inside itself, its clues sticky
      var boardH = Math.max(240, window.innerHeight - board.getBoundingClientRect().top - 12);
      document.documentElement.style.setProperty("--board-h", printing ? "none" : boardH + "px");
    }
    var resizeTimer = null;
    window.addEventListener("resize", function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(fit, 100);
    });
    window.addEventListener("beforeprint", function () {
      printing = true;
      setHover(-1, -1);
      showCursor(false);
      fit();
    });
    window.addEventListener("afterprint", function () {
      printing = false;
      fit();
    });

    restore();
    refreshAll();
    fit();
    if (!solved) startTimer();
    showTime();
    say(
      solved
        ? "Solved in " + formatTime(elapsed) + "!"
        : "Left button paints, right button marks a cell empty; drag for a straight line."
    );
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(typeof globalThis !== "undefined" ? globalThis : this);
