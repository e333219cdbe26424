/* rofl puzzle page: solve a nonogram by hand in a browser.
 *
 * Two halves.  The first is pure logic (clues of a line, line status, the
 * solved check, line deductions, hints and the line solver, the storage
 * key, stroke geometry): no DOM, so the test suite runs it in V8 and
 * compares it with rofl's Python reference.  The second builds and drives
 * the page (mouse, touch, keys, zoom, storage) and only runs where a
 * `document` exists; the browser tests drive it in Chromium.
 *
 * Cell states: 0 unknown, -1 known empty (the player's dot), k >= 1 painted
 * with palette colour k.  A grid is a flat row-major array of W * H states.
 * The file never holds the solution: the page tells a solved grid by its
 * clues, its hints follow from the clues and the player's marks alone, and
 * Check compares the cells with the solution the page's own line solver
 * works out (lineSolve) when the puzzle is line-solvable, as rofl's are.
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
   * them when unknown), and narrowLines runs the lines.  Returns, for the first line that
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
    var may = new Array(w * h);
    var by = new Array(w * h); // the lines that narrowed each cell
    var every = allStates(puzzle.palette.length);
    for (var i = 0; i < w * h; i++) {
      var s = grid[i];
      may[i] = s === UNKNOWN ? every : [s === EMPTY ? 0 : s];
      by[i] = null;
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
    var stop = narrowLines(puzzle, may, function (line, idx, changed) {
      var decided = [];
      changed.forEach(function (cell) {
        (by[cell] || (by[cell] = [])).push(line);
        if (grid[cell] === UNKNOWN && may[cell].length === 1) {
          decided.push([cell, may[cell][0] === 0 ? EMPTY : may[cell][0]]);
        }
      });
      if (decided.length) return { line: named(line), cells: decided, using: usedBy(idx, line) };
      return null;
    });
    if (stop && stop.failed !== undefined) {
      return { contradiction: named(stop.failed), using: usedBy(stop.idx, stop.failed) };
    }
    return stop;
  }

  function allStates(nColours) {
    var every = [];
    for (var k = 0; k < nColours; k++) every.push(k);
    return every;
  }

  /**
   * Line logic to its fixpoint over `may` (per cell, the sorted states it
   * can still take, 0 for background), narrowed in place.
   *
   * Lines are taken from a queue -- first every row top to bottom then
   * every column left to right, then each crossing line of a cell whose
   * list shrank, once at a time -- and each line's cells are narrowed to
   * lineDeductions.  After each line, `onLine(line, idx, changed)` (line:
   * rows 0 .. h - 1 then columns; idx: its cells; changed: those whose list
   * shrank) may return a value to stop with.  Returns that value,
   * {failed: line, idx: idx} for a line with no completion, or null at the
   * fixpoint.
   */
  function narrowLines(puzzle, may, onLine) {
    var w = puzzle.width;
    var h = puzzle.height;
    var nColours = puzzle.palette.length;
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
      if (possible === null) return { failed: line, idx: idx };
      var changed = [];
      for (var p = 0; p < idx.length; p++) {
        var cell = idx[p];
        if (possible[p].length === may[cell].length) continue;
        may[cell] = possible[p];
        changed.push(cell);
        var crossing = line < h ? h + (cell % w) : Math.floor(cell / w);
        if (!queued[crossing]) {
          queued[crossing] = 1;
          queue.push(crossing);
        }
      }
      if (onLine) {
        var stop = onLine(line, idx, changed);
        if (stop) return stop;
      }
    }
    return null;
  }

  /**
   * The puzzle's solution as line logic finds it from an empty grid, for
   * Check and Reveal: the page works it out, the file does not hold it.
   *
   * Returns {grid: states, complete: bool}: each cell EMPTY (background),
   * a colour k >= 1, or UNKNOWN where line logic leaves it open; complete
   * when no cell is left open, and then the grid is the puzzle's only
   * solution (line logic only draws what every solution shares).  null
   * when some line cannot be completed at all (the puzzle has no solution).
   */
  function lineSolve(puzzle) {
    var size = puzzle.width * puzzle.height;
    var every = allStates(puzzle.palette.length);
    var may = new Array(size).fill(every);
    if (narrowLines(puzzle, may, null)) return null;
    var out = new Array(size);
    var complete = true;
    for (var i = 0; i < size; i++) {
      if (may[i].length !== 1) {
        out[i] = UNKNOWN;
        complete = false;
      } else {
        out[i] = may[i][0] === 0 ? EMPTY : may[i][0];
      }
    }
    return { grid: out, complete: complete };
  }

  /**
   * The cells where the player's grid disagrees with `solution` (both flat
   * state arrays): painted with another colour than the solution's, or
   * marked empty where the solution paints.  Unknown cells are not mistakes.
   */
  function wrongCells(grid, solution) {
    var out = [];
    for (var i = 0; i < grid.length; i++) {
      var g = grid[i];
      if (g === UNKNOWN) continue;
      if (g > 0 ? g !== solution[i] : solution[i] > 0) out.push(i);
    }
    return out;
  }

  /** The whole percentage of cells the player has decided (painted or marked empty). */
  function progressPercent(grid) {
    var decided = 0;
    for (var i = 0; i < grid.length; i++) if (grid[i] !== UNKNOWN) decided++;
    return grid.length ? Math.floor((100 * decided) / grid.length) : 100;
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

  /** The cells of the rectangle with corners (r0, c0) and (r1, c1), row by row: a drag with Alt held. */
  function rectCells(r0, c0, r1, c1) {
    var out = [];
    for (var r = Math.min(r0, r1); r <= Math.max(r0, r1); r++) {
      for (var c = Math.min(c0, c1); c <= Math.max(c0, c1); c++) out.push([r, c]);
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

  /** The WCAG relative luminance of the colour "#rrggbb". */
  function luminance(hex) {
    var sum = 0;
    var weights = [0.2126, 0.7152, 0.0722];
    for (var k = 0; k < 3; k++) {
      var v = parseInt(hex.slice(1 + 2 * k, 3 + 2 * k), 16) / 255;
      sum += weights[k] * (v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
    }
    return sum;
  }

  /** Black or white, whichever has the higher WCAG contrast on the colour "#rrggbb" (at least 4.58:1). */
  function textOn(hex) {
    var l = luminance(hex);
    return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#ffffff";
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
    lineSolve: lineSolve,
    wrongCells: wrongCells,
    progressPercent: progressPercent,
    fnv1a64: fnv1a64,
    storageKey: storageKey,
    encodeCells: encodeCells,
    decodeCells: decodeCells,
    strokeCells: strokeCells,
    rectCells: rectCells,
    strokeTarget: strokeTarget,
    strokeChanges: strokeChanges,
    formatTime: formatTime,
    textOn: textOn,
    luminance: luminance,
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
    var moved = false; // the timer runs from the player's first move in this visit
    var solved = false;
    var revealed = false; // solved by "Reveal solution", not by the player
    var stroke = null;
    var cursor = { r: 0, c: 0, shown: false };
    var hover = { r: -1, c: -1 };
    var rowStatus = new Array(H).fill("open");
    var colStatus = new Array(W).fill("open");
    var unfitRows = {};
    var unfitCols = {};
    var struck = {}; // "r3.0" / "c5.2": clue numbers the player struck out
    var options = { mistakes: false, cross: false };
    var touchMode = "paint"; // on touch screens: a drag paints, or scrolls the board
    var zoomCell = null; // cell size in px the player zoomed to; null: fit the window
    var shownMistakes = []; // cells Check outlined

    var board = document.getElementById("board");
    var statusLine = document.getElementById("status");
    var timerEl = document.getElementById("timer");
    var progressEl = document.getElementById("progress");
    var toolsEl = document.getElementById("tools");
    var undoBtn = document.getElementById("undo");
    var redoBtn = document.getElementById("redo");
    var applyBtn = document.getElementById("apply");
    var touchBtn = document.getElementById("touchmode");
    var revealBtn = document.getElementById("reveal");
    var mistakesBox = document.getElementById("opt-mistakes");
    var crossBox = document.getElementById("opt-cross");
    var shownHint = null; // the hint on show: its answer and the elements it marked
    var rootStyle = document.documentElement.style;
    rootStyle.setProperty("--bg", palette[0]);

    // The solution, as the page's own line logic finds it (see lineSolve):
    // worked out when first needed (Check, Options), as it takes seconds on
    // a big colour puzzle; null for puzzles line logic cannot finish, where
    // Check falls back to finding the lines that cannot match their clues.
    var solution;
    function knownSolution() {
      if (solution === undefined) {
        var found = lineSolve(puzzle);
        solution = found && found.complete ? found.grid : null;
        if (!solution) {
          mistakesBox.disabled = true;
          revealBtn.disabled = true;
          document.getElementById("logic-note").hidden = false;
        }
      }
      return solution;
    }

    // ------------------------------------------------------------ the table
    var cells = new Array(W * H);
    var rowHeads = new Array(H);
    var colHeads = new Array(W);
    var trs = new Array(H);
    var table = el("table", { class: "grid" });
    var head = el("tr", { class: "colclues" });
    head.appendChild(el("td", { class: "corner" }));

    function clueNumbers(container, clue, prefix) {
      if (clue.length === 0) {
        container.appendChild(el("span", { class: "n zero" }, "0"));
        return;
      }
      for (var g = 0; g < clue.length; g++) {
        var span = el("span", { class: "n" }, String(clue[g][0]));
        span.dataset.k = prefix + "." + g;
        if (multi) {
          var colour = palette[clue[g][1]];
          span.className = "n chip";
          span.style.setProperty("--chip", colour);
          span.style.setProperty("--chip-ink", textOn(colour));
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
      clueNumbers(box, puzzle.cols[c], "c" + c);
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
      clueNumbers(rbox, puzzle.rows[r], "r" + r);
      rh.appendChild(rbox);
      rh.dataset.label = "row " + (r + 1) + ": " + clueLabel(puzzle.rows[r]);
      rowHeads[r] = rh;
      tr.appendChild(rh);
      for (c = 0; c < W; c++) {
        var td = el("td", { class: "cell", id: "cell-" + (r * W + c) });
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
    var toolOrder = [];
    function addTool(value, label, aria) {
      var b = el("button", { type: "button", class: "tool", "aria-pressed": "false", "aria-label": aria, title: aria });
      var sw = el("span", { class: "swatch", "aria-hidden": "true" });
      if (value > 0) sw.style.background = palette[value];
      else sw.classList.add("dot");
      b.appendChild(sw);
      b.appendChild(el("span", { class: "key", "aria-hidden": "true" }, label));
      b.addEventListener("click", function () {
        selectTool(value);
      });
      toolButtons[value] = b;
      toolOrder.push(value);
      toolsEl.appendChild(b);
    }
    for (var k = 1; k < nColours; k++) {
      var shortcut = k <= 9 ? String(k) : "";
      var name = multi ? "colour " + k + " (" + palette[k] + ")" : "fill";
      addTool(k, shortcut, "Paint " + name + (shortcut ? ", key " + shortcut : ", keys [ and ]"));
    }
    addTool(EMPTY, "X", "Mark cells known empty, key X");

    function selectTool(value) {
      if (!(value in toolButtons)) return;
      tool = value;
      for (var v in toolButtons) toolButtons[v].setAttribute("aria-pressed", String(Number(v) === value));
      save();
    }

    /** [ and ]: the previous or next tool, through every colour (so colours 10 and up too) and the marker. */
    function stepTool(step) {
      var at = toolOrder.indexOf(tool);
      selectTool(toolOrder[(at + step + toolOrder.length) % toolOrder.length]);
    }

    // ------------------------------------------------------------- drawing
    function paintCell(i) {
      var td = cells[i];
      var v = grid[i];
      td.classList.toggle("x", v === EMPTY);
      td.classList.toggle("f", v > 0);
      td.style.backgroundColor = v > 0 ? palette[v] : ""; // the colour only: the mistake corner is an image
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
        cells[i].classList.remove("mistake"); // Check's outline goes with the cell's change
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
        clearMistakes();
        say(revealed ? "Solution revealed." : "Solved in " + formatTime(elapsed) + "!");
      } else if (!nowSolved && solved) {
        // an edit after the end: back to playing, the timer runs on from where it stopped
        solved = false;
        revealed = false;
        startTimer();
        say("Back to playing: the grid no longer matches every clue.");
      }
      if (options.mistakes && !solved && knownSolution()) showMistakes(wrongCells(grid, solution));
      board.classList.toggle("solved", solved);
      document.body.classList.toggle("is-solved", solved);
      undoBtn.disabled = undoStack.length === 0;
      redoBtn.disabled = redoStack.length === 0;
      var pct = solved ? 100 : progressPercent(grid);
      progressEl.textContent = pct + "%";
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

    /**
     * A move the player made, its cells already set: crosses the rest of the
     * lines it finished when that option is on, records it as one undoable
     * step, starts the timer.
     */
    function commit(action) {
      if (options.cross && action.idx.length) {
        var lines = {};
        action.idx.forEach(function (i) {
          lines["r" + Math.floor(i / W)] = true;
          lines["c" + (i % W)] = true;
        });
        var extra = [];
        for (var name in lines) {
          var n = Number(name.slice(1));
          var isRow = name.charAt(0) === "r";
          if ((isRow ? rowStatus[n] : colStatus[n]) !== "done") continue;
          for (var j = 0; j < (isRow ? W : H); j++) {
            var i = isRow ? n * W + j : j * W + n;
            if (grid[i] === UNKNOWN && extra.indexOf(i) < 0) extra.push(i);
          }
        }
        if (extra.length) {
          setCells(
            extra,
            extra.map(function () {
              return EMPTY;
            })
          );
          extra.forEach(function (i) {
            action.idx.push(i);
            action.before.push(UNKNOWN);
            action.after.push(EMPTY);
          });
        }
      }
      if (action.idx.length) {
        record(action);
        moved = true;
        startTimer();
        showTime();
      }
      afterChange();
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
      moved = false; // the timer starts again at the next move
      solved = false;
      revealed = false;
      afterChange();
      say(idx.length ? "Cleared; Undo brings the cells back." : "The grid is already empty.");
    }

    // ---------------------------------------------------------- mistakes
    function clearMistakes() {
      shownMistakes.forEach(function (i) {
        cells[i].classList.remove("mistake");
      });
      shownMistakes = [];
    }

    function showMistakes(wrong) {
      clearMistakes();
      wrong.forEach(function (i) {
        cells[i].classList.add("mistake");
      });
      shownMistakes = wrong;
    }

    function check() {
      clearHint();
      var report = gridReport(puzzle, grid);
      if (report.solved) {
        say("Solved! Every row and column matches its clue.");
        return;
      }
      if (knownSolution()) {
        var wrong = wrongCells(grid, solution);
        showMistakes(wrong);
        var n = wrong.length;
        if (n) {
          say(
            (n === 1 ? "1 cell is wrong" : n + " cells are wrong") + " (outlined in red)" +
              " \u2014 Undo steps back, or paint " + (n === 1 ? "it" : "them") + " again."
          );
          cells[wrong[0]].scrollIntoView({ block: "nearest", inline: "nearest" });
        } else {
          say("No mistakes so far; " + progressPercent(grid) + "% of cells decided.");
        }
        return;
      }
      // line logic cannot finish this puzzle, so the page does not know its
      // solution: find the lines that cannot match their clues as they stand
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
      var note = " (Line logic cannot finish this puzzle, so Check can only find lines that cannot match.)";
      if (report.unfit.length) {
        var m = report.unfit.length;
        var list = report.unfit.slice(0, 8).join(", ") + (m > 8 ? ", \u2026" : "");
        say(
          (m === 1
            ? "1 line is wrong: it cannot match its clue as it stands: " + list + "."
            : m + " lines are wrong: they cannot match their clues as they stand: " + list + ".") + note
        );
      } else {
        var left = report.rows.concat(report.cols).filter(function (s) {
          return s !== "done";
        }).length;
        say("No line is wrong so far; " + left + (left === 1 ? " line" : " lines") + " still to finish." + note);
      }
    }

    function reveal() {
      if (!knownSolution() || solved) return;
      if (!window.confirm("Reveal the solution? Your grid is replaced by it (Undo brings your cells back).")) return;
      var idx = [];
      var before = [];
      var after = [];
      for (var i = 0; i < W * H; i++) {
        if (grid[i] !== solution[i]) {
          idx.push(i);
          before.push(grid[i]);
          after.push(solution[i]);
        }
      }
      revealed = true;
      setCells(idx, after);
      record({ idx: idx, before: before, after: after });
      afterChange();
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
      setCells(idx, after);
      commit({ idx: idx, before: before, after: after });
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
      if (runningSince === null && moved && !solved && !document.hidden) runningSince = now();
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
    var restored = false; // save() waits until the saved state is read back

    function save() {
      if (!storage || !restored) return;
      try {
        storage.setItem(
          key,
          JSON.stringify({
            v: 1,
            cells: encodeCells(grid),
            time: seconds(),
            solved: solved,
            revealed: revealed,
            tool: tool,
            touch: touchMode,
            zoom: zoomCell,
            struck: Object.keys(struck),
            options: options,
          })
        );
      } catch (e) {
        /* quota or privacy mode: keep playing */
      }
    }

    /** The saved state of this puzzle, or null; fields a newer or older page left out keep their defaults. */
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
      revealed = saved.revealed === true;
      if (typeof saved.tool === "number" && saved.tool in toolButtons) tool = saved.tool;
      if (saved.touch === "scroll") touchMode = "scroll";
      if (typeof saved.zoom === "number" && isFinite(saved.zoom)) zoomCell = clampCell(saved.zoom);
      if (Array.isArray(saved.struck)) {
        saved.struck.forEach(function (k) {
          if (typeof k === "string") struck[k] = true;
        });
      }
      if (saved.options && typeof saved.options === "object") {
        options.mistakes = saved.options.mistakes === true;
        options.cross = saved.options.cross === true;
      }
    }
    window.addEventListener("pagehide", save);

    // --------------------------------------------------------------- status
    function say(text) {
      statusLine.textContent = text;
    }

    // ---------------------------------------------------------- highlighting
    var whereEl = document.getElementById("where");
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
      whereEl.textContent = r >= 0 ? "row " + (r + 1) + ", column " + (c + 1) : "";
    }

    function stateName(v) {
      if (v === UNKNOWN) return "unknown";
      if (v === EMPTY) return "marked empty";
      return multi ? "colour " + v : "painted";
    }

    function showCursor(show) {
      var i = cursor.r * W + cursor.c;
      for (var n = 0; n < cells.length; n++) if (n !== i) cells[n].classList.remove("cur");
      cells[i].classList.toggle("cur", show);
      cursor.shown = show;
      if (show) {
        board.setAttribute("aria-activedescendant", cells[i].id);
        cells[i].scrollIntoView({ block: "nearest", inline: "nearest" });
      } else {
        board.removeAttribute("aria-activedescendant");
      }
    }

    /** The keyboard cursor's cell, said for screen readers (the where line is live). */
    function sayCursor() {
      var i = cursor.r * W + cursor.c;
      whereEl.textContent = "row " + (cursor.r + 1) + ", column " + (cursor.c + 1) + ": " + stateName(grid[i]);
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

    function beginStroke(r, c, useTool, pointerId, rect) {
      var i = r * W + c;
      stroke = {
        r0: r,
        c0: c,
        from: grid[i],
        to: strokeTarget(grid[i], useTool),
        before: {}, // index -> state before the stroke, for cells it changed
        pointerId: pointerId,
        rect: rect, // Alt held: a rectangle instead of a straight run
        r1: r,
        c1: c,
      };
      extendStroke(r, c);
    }

    function extendStroke(r, c) {
      stroke.r1 = r;
      stroke.c1 = c;
      var want = {};
      (stroke.rect ? rectCells : strokeCells)(stroke.r0, stroke.c0, r, c).forEach(function (rc) {
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
      whereEl.textContent = "row " + (r + 1) + ", column " + (c + 1) + (n > 1 ? " \u2014 " + n + " cells" : "");
    }

    /** The cells the stroke changed, back as they were: a second finger came down to pinch. */
    function dropStroke() {
      var idx = Object.keys(stroke.before).map(Number);
      var before = idx.map(function (i) {
        return stroke.before[i];
      });
      stroke = null;
      setCells(idx, before);
      afterChange();
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
      commit({ idx: idx, before: before, after: after });
    }

    // Touch: in paint mode a finger paints like the mouse and two fingers on
    // the grid zoom; in scroll mode the browser scrolls and zooms, and a tap
    // (a touch that ends where it began) paints one cell.
    var touches = {}; // pointerId -> [x, y] of the fingers on the grid (paint mode)
    var pinch = null; // {d0, cell0} while two fingers zoom
    var tap = null; // {id, r, c, x, y}: a touch in scroll mode, a tap if it ends close by

    function fingerDistance() {
      var p = Object.keys(touches).map(function (id) {
        return touches[id];
      });
      return Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]) || 1;
    }

    function usingTouch() {
      if (!document.body.classList.contains("touch")) {
        document.body.classList.add("touch");
        say(startMessage());
      }
    }

    board.addEventListener("pointerdown", function (e) {
      var at = cellOf(e.target);
      if (!at) return;
      if (e.pointerType === "touch") {
        usingTouch();
        if (touchMode === "scroll") {
          tap = { id: e.pointerId, r: at.r, c: at.c, x: e.clientX, y: e.clientY };
          return;
        }
        touches[e.pointerId] = [e.clientX, e.clientY];
        if (Object.keys(touches).length === 2) {
          if (stroke) dropStroke();
          pinch = { d0: fingerDistance(), cell0: currentCell() };
          e.preventDefault();
          return;
        }
      }
      if (stroke || pinch) return;
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
      beginStroke(at.r, at.c, useTool, e.pointerId, e.altKey);
    });

    board.addEventListener("pointermove", function (e) {
      if (e.pointerId in touches) touches[e.pointerId] = [e.clientX, e.clientY];
      if (pinch && Object.keys(touches).length === 2) {
        zoomTo((pinch.cell0 * fingerDistance()) / pinch.d0);
        return;
      }
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
      delete touches[e.pointerId];
      if (Object.keys(touches).length < 2) pinch = null;
      if (stroke && e.pointerId === stroke.pointerId) endStroke();
    }
    board.addEventListener("pointerup", function (e) {
      if (tap && e.pointerId === tap.id) {
        var t = tap;
        tap = null;
        if (Math.hypot(e.clientX - t.x, e.clientY - t.y) < 12) applyAt(t.r, t.c, tool);
      }
      finish(e);
    });
    board.addEventListener("pointercancel", function (e) {
      tap = null; // the browser took the touch to scroll
      finish(e);
    });
    board.addEventListener("lostpointercapture", finish);
    board.addEventListener("pointerleave", function (e) {
      if (!stroke && e.pointerType === "mouse") setHover(-1, -1);
    });
    board.addEventListener("contextmenu", function (e) {
      e.preventDefault();
    });

    // a click on a clue number strikes it out (or back in): the player's own bookkeeping
    board.addEventListener("click", function (e) {
      var n = e.target && e.target.closest ? e.target.closest("th .n") : null;
      if (!n || !n.dataset.k) return;
      if (struck[n.dataset.k]) delete struck[n.dataset.k];
      else struck[n.dataset.k] = true;
      n.classList.toggle("struck", !!struck[n.dataset.k]);
      save();
    });

    function setTouchMode(mode) {
      touchMode = mode;
      var scroll = mode === "scroll";
      board.classList.toggle("scroll-mode", scroll);
      touchBtn.setAttribute("aria-pressed", String(scroll));
      touchBtn.title = scroll
        ? "Touch scrolls and zooms the board; a tap paints one cell. Press to paint by dragging."
        : "Touch paints by dragging; two fingers zoom. Press to scroll the board by dragging.";
      save();
    }
    touchBtn.addEventListener("click", function () {
      setTouchMode(touchMode === "paint" ? "scroll" : "paint");
      say(
        touchMode === "scroll"
          ? "Scroll mode: drag to scroll, pinch to zoom, tap a cell to paint it."
          : "Paint mode: drag to paint a straight line, two fingers zoom."
      );
    });

    // ------------------------------------------------------------- keyboard
    function applyAt(r, c, useTool) {
      var i = r * W + c;
      var to = strokeTarget(grid[i], useTool);
      var before = grid[i];
      if (before === to) return;
      setCells([i], [to]);
      commit({ idx: [i], before: [before], after: [to] });
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
      var target = e.target;
      if (target && target.tagName === "INPUT") return;
      if (/^[1-9]$/.test(k) && Number(k) < nColours) {
        selectTool(Number(k));
        return;
      }
      if (k === "[" || k === "]") {
        stepTool(k === "]" ? 1 : -1);
        return;
      }
      if (k === "x" || k === "X") {
        selectTool(tool === EMPTY ? 1 : EMPTY);
        return;
      }
      if (k === "+" || k === "=" || k === "-") {
        zoomBy(k === "-" ? 1 / 1.25 : 1.25);
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
        sayCursor();
      } else if (k === " " || k === "Enter") {
        e.preventDefault();
        showCursor(true);
        applyAt(cursor.r, cursor.c, tool);
        sayCursor();
      } else if (k === "." || k === "Delete" || k === "Backspace") {
        e.preventDefault();
        showCursor(true);
        if (k === ".") applyAt(cursor.r, cursor.c, EMPTY);
        else if (grid[cursor.r * W + cursor.c] !== UNKNOWN) applyAt(cursor.r, cursor.c, grid[cursor.r * W + cursor.c]);
        sayCursor();
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
    revealBtn.addEventListener("click", reveal);
    mistakesBox.addEventListener("change", function () {
      options.mistakes = mistakesBox.checked;
      if (options.mistakes && !solved && knownSolution()) showMistakes(wrongCells(grid, solution));
      else clearMistakes();
      save();
    });
    crossBox.addEventListener("change", function () {
      options.cross = crossBox.checked;
      save();
    });

    // ------------------------------------------------------ cell size, zoom
    var printing = false;
    var MIN_CELL = 8;
    var MAX_CELL = 64;
    var longestRowClue = 0;
    for (r = 0; r < H; r++) longestRowClue = Math.max(longestRowClue, puzzle.rows[r].length);

    function clampCell(px) {
      return Math.max(MIN_CELL, Math.min(MAX_CELL, Math.round(px)));
    }

    function currentCell() {
      return parseFloat(rootStyle.getPropertyValue("--cell")) || 24;
    }

    /**
     * Cells of `cell` px.  Clue numbers grow with the cells up to a reading
     * size, and the row clues shrink below it on a narrow screen, so that
     * they leave the grid more than half the width.
     */
    function setCell(cell) {
      var font = Math.max(7, Math.min(cell * 0.62, 16));
      rootStyle.setProperty("--cell", cell + "px");
      rootStyle.setProperty("--clue", font + "px");
      var rowFont = font;
      if (!printing) {
        var band = longestRowClue * 1.7 + 1; // em: a chip, its gap, and the band's padding
        var room = 0.45 * document.documentElement.clientWidth;
        rowFont = Math.max(Math.min(font, 9), Math.min(font, room / band));
      }
      rootStyle.setProperty("--row-clue", rowFont + "px");
    }

    /** The cell size that fits the window (or the paper), unless the player zoomed. */
    function fit() {
      var availW = printing ? 680 : Math.max(200, document.documentElement.clientWidth - 2 * board.offsetLeft);
      // the board's place on the page, not in the window: the page may be scrolled
      var top = board.getBoundingClientRect().top + window.scrollY;
      var availH = printing ? 960 : Math.max(200, window.innerHeight - top - 16);
      var cell;
      if (zoomCell !== null && !printing) {
        cell = zoomCell;
      } else {
        var side = 24;
        setCell(side);
        var bandW = rowHeads[0] ? rowHeads[0].getBoundingClientRect().width : 0;
        var bandH = head.getBoundingClientRect().height;
        var byW = (availW - bandW) / W;
        var byH = (availH - bandH * (printing ? 1 : 0.6)) / H;
        cell = printing ? Math.min(byW, byH) : Math.min(byW, Math.max(byH, 18));
        cell = Math.floor(Math.max(printing ? 5 : 14, Math.min(printing ? 28 : 36, cell)));
      }
      setCell(cell);
      // a board taller than the window scrolls inside itself, its clues sticky
      var boardH = Math.max(240, window.innerHeight - top - 12);
      rootStyle.setProperty("--board-h", printing ? "none" : boardH + "px");
    }

    /** Zoom to cells of about `px`, keeping the point under the fingers, the pointer or the board's centre in place. */
    function zoomTo(px, anchor) {
      var old = currentCell();
      var cell = clampCell(px);
      if (cell === old) return;
      var rect = board.getBoundingClientRect();
      var ax = anchor ? anchor.clientX - rect.left : rect.width / 2;
      var ay = anchor ? anchor.clientY - rect.top : rect.height / 2;
      var ratio = cell / old;
      var left = (board.scrollLeft + ax) * ratio - ax;
      var top = (board.scrollTop + ay) * ratio - ay;
      zoomCell = cell;
      setCell(cell);
      board.scrollLeft = left;
      board.scrollTop = top;
      zoomLabel();
      save();
    }

    function zoomBy(factor, anchor) {
      zoomTo(Math.max(currentCell() + (factor > 1 ? 1 : -1), currentCell() * factor), anchor);
    }

    function zoomLabel() {
      var text = "Cells " + currentCell() + " px";
      document.getElementById("zoomin").title = "Zoom in (+ or Ctrl+wheel). " + text;
      document.getElementById("zoomout").title = "Zoom out (\u2212 or Ctrl+wheel). " + text;
    }

    document.getElementById("zoomin").addEventListener("click", function () {
      zoomBy(1.25);
    });
    document.getElementById("zoomout").addEventListener("click", function () {
      zoomBy(1 / 1.25);
    });
    document.getElementById("zoomfit").addEventListener("click", function () {
      zoomCell = null;
      fit();
      zoomLabel();
      save();
    });
    board.addEventListener(
      "wheel",
      function (e) {
        if (!e.ctrlKey) return;
        e.preventDefault(); // not the browser's page zoom: the board's
        zoomBy(e.deltaY < 0 ? 1.15 : 1 / 1.15, e);
      },
      { passive: false }
    );

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

    function startMessage() {
      if (solved) return revealed ? "Solution revealed." : "Solved in " + formatTime(elapsed) + "!";
      if (document.body.classList.contains("touch")) {
        return "Tap or drag to paint with the chosen colour; choose \u00d7 to mark cells empty. Two fingers zoom.";
      }
      return "Left button paints, right button marks a cell empty; drag for a straight line, Alt+drag for a rectangle.";
    }

    if (window.matchMedia && window.matchMedia("(pointer: coarse)").matches) document.body.classList.add("touch");
    restore();
    restored = true;
    for (var sk in struck) {
      var span = board.querySelector('[data-k="' + sk + '"]');
      if (span) span.classList.add("struck");
      else delete struck[sk];
    }
    selectTool(tool);
    setTouchMode(touchMode);
    mistakesBox.checked = options.mistakes;
    crossBox.checked = options.cross;
    // the options say what they can do for this puzzle
    document.querySelector("details.options").addEventListener("toggle", knownSolution);
    refreshAll();
    fit();
    zoomLabel();
    showTime();
    say(startMessage());
    // the page's state for tests and curious players: read-only copies
    root.RoflPageState = function () {
      return {
        grid: grid.slice(),
        tool: tool,
        solved: solved,
        revealed: revealed,
        seconds: seconds(),
        running: runningSince !== null,
        cell: currentCell(),
        touchMode: touchMode,
        lineSolvable: knownSolution() !== null,
        mistakes: shownMistakes.slice(),
        struck: Object.keys(struck).sort(),
        progress: progressPercent(grid),
      };
    };
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(typeof globalThis !== "undefined" ? globalThis : this);
