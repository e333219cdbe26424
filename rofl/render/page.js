/* rofl puzzle page: solve a nonogram by hand in a browser.
 *
 * Two halves.  The first is pure logic (clues of a line, line status, the
 * solved check, line deductions, hints and the line solver, the storage
 * key, stroke geometry): no DOM, so the test suite runs it in V8 and
 * compares it with rofl's Python reference.  The second builds and drives
 * the page (mouse, touch, keys, zoom, storage) and only runs where a
 * `document` exists; the browser tests drive it in Chromium.
 *
 * A board is a rectangle (its cells drawn on canvases, its clues in HTML
 * bands: gridView) or a hexagon (drawn in SVG as on rofl's hexagonal
 * sheets: hexView); either is its cells and its lines, each
 * line a list of cell indices with its clue (boardOf), so everything but the
 * drawing, the pointer geometry and the cursor's moves is shared.  A clue
 * group is [length, colour], or [length, [colours]] for a "?" group (a run of
 * any one of those colours).
 *
 * Cell states: 0 unknown, -1 known empty (the player's dot), k >= 1 painted
 * with palette colour k.  A grid is a flat array of states in the board's
 * cell order (row-major for a rectangle, row by row for a hexagon).
 * The file never holds the solution: the page tells a solved grid by its
 * clues, its hints follow from the clues and the player's marks alone, and
 * Check compares the cells with the solution the page's own line solver
 * works out (lineSolve) when the puzzle is line-solvable, as rofl's are.
 */
(function (root) {
  "use strict";

  var UNKNOWN = 0;
  var EMPTY = -1;
  // the letters of colours 1, 2, ... as rofl's sheets print them (rofl/render/layout.py LETTERS)
  var LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!$%&*+/;<=>?@^_~";

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

  /** The colours a clue group may take: [k] for colour k, or its set (a "?" group: a sorted list). */
  function groupColours(group) {
    return typeof group[1] === "number" ? [group[1]] : group[1];
  }

  /**
   * Whether `derived` (the exact [length, colour] groups of a line) gives
   * `clue`: as many groups, of the same lengths, each colour in its group's
   * set.  Same-coloured neighbours need a gap whatever the clue says, and a
   * derived clue has one between them by construction (two touching runs of
   * one colour are one group).
   */
  function clueMatches(derived, clue) {
    if (derived.length !== clue.length) return false;
    for (var i = 0; i < clue.length; i++) {
      var want = clue[i][1];
      if (derived[i][0] !== clue[i][0]) return false;
      if (typeof want === "number" ? derived[i][1] !== want : want.indexOf(derived[i][1]) < 0) return false;
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
   *   end[(base[j - 1] + o) * (n + 1) + i]: some placement has group j - 1,
   *     in the o-th colour it may take, ending at cell i - 1;
   *   gap[j * (n + 1) + i]: some placement has cell i - 1 background (or i == 0).
   * Groups of one colour need a background cell between them, groups of
   * different colours may touch; a "?" group takes one colour of its set,
   * and the same rule holds for the colour it takes.  O(colours tried *
   * cells) time and memory, in two flat arrays (one allocation each: a
   * hint runs this 400 times).
   */
  function forwardPass(cells, clue) {
    var n = cells.length;
    var m = clue.length;
    var w = n + 1;
    var i, j, o;
    var opts = clue.map(groupColours);
    var base = new Int32Array(m + 1);
    for (j = 0; j < m; j++) base[j + 1] = base[j] + opts[j].length;
    var f = { end: new Uint8Array(base[m] * w), gap: new Uint8Array((m + 1) * w), width: w, base: base, opts: opts };
    var end = f.end;
    var gap = f.gap;
    gap[0] = 1;
    for (i = 0; i < n; i++) gap[i + 1] = gap[i] && mayBeBackground(cells[i]) ? 1 : 0;
    var blockedBy = {};
    for (j = 0; j < m; j++) {
      var len = clue[j][0];
      var prev = j * w;
      for (o = 0; o < opts[j].length; o++) {
        var colour = opts[j][o];
        var blocked = blockedBy[colour] || (blockedBy[colour] = blockedCounts(cells, colour));
        var row = (base[j] + o) * w;
        for (i = 0; i + len <= n; i++) {
          if (blocked[i + len] !== blocked[i]) continue;
          // after a background cell, or touching the previous group in another colour
          if (gap[prev + i] || (j > 0 && endsOther(f, j - 1, i, colour))) end[row + i + len] = 1;
        }
      }
      var here = (j + 1) * w;
      for (i = 0; i < n; i++) {
        if ((endsAny(f, j, i) || gap[here + i]) && mayBeBackground(cells[i])) gap[here + i + 1] = 1;
      }
    }
    return f;
  }

  /** Whether the pass placed group g (0-based) ending at cell i - 1, in any of its colours. */
  function endsAny(f, g, i) {
    var w = f.width;
    for (var o = f.base[g]; o < f.base[g + 1]; o++) if (f.end[o * w + i]) return true;
    return false;
  }

  /** endsAny, in a colour other than `colour` (so that a group of that colour may touch it). */
  function endsOther(f, g, i, colour) {
    var w = f.width;
    var opts = f.opts[g];
    for (var o = 0; o < opts.length; o++) {
      if (opts[o] !== colour && f.end[(f.base[g] + o) * w + i]) return true;
    }
    return false;
  }

  /** Whether forwardPass placed every group and reached the end of the line. */
  function passFits(f, m, n) {
    return (m > 0 && endsAny(f, m - 1, n)) || f.gap[m * f.width + n] === 1;
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
   * the puzzle's clues use.  A "?" group of `clue` may take any colour of
   * its set (see forwardPass).
   *
   * Forward and backward passes (the backward one is the forward one over
   * the reversed line and clue) meet at each cell: O(groups * cells +
   * colours * cells) per line (a "?" group counts once per colour it may take), so a hint scanning all 200 lines of a
   * 100x100 puzzle stays in milliseconds whatever the palette.  Trying each
   * state of each unknown cell with lineFits would cost cells * colours
   * times as much: about 10^9 steps for such a puzzle with 10 colours.
   */
  function lineDeductions(cells, clue, nColours) {
    var n = cells.length;
    var m = clue.length;
    var i, j, o;
    var w = n + 1;
    var f = forwardPass(cells, clue);
    if (!passFits(f, m, n)) return null;
    var rev = Array.prototype.slice.call(cells).reverse();
    var b = forwardPass(rev, clue.slice().reverse()); // its group m - 1 - j is group j
    // groups j.. fill cells [i, n) with group j starting at cell i (in a colour other than `other`, if given)
    function startsAt(jj, ii, other) {
      if (jj >= m) return false;
      return other === undefined ? endsAny(b, m - 1 - jj, n - ii) : endsOther(b, m - 1 - jj, n - ii, other);
    }
    // ... with cell i background
    function bgAt(jj, ii) {
      return b.gap[(m - jj) * w + n - ii] === 1;
    }
    var bg = new Uint8Array(n);
    for (i = 0; i < n; i++) {
      if (!mayBeBackground(cells[i])) continue;
      for (j = 0; j <= m && !bg[i]; j++) {
        if (((j > 0 && endsAny(f, j - 1, i)) || f.gap[j * w + i]) && (startsAt(j, i + 1) || bgAt(j, i + 1))) bg[i] = 1;
      }
    }
    // runs of each colour every group can occupy, summed with a difference array
    var cover = new Array(nColours); // colour -> difference array, for the clue's colours
    var blockedBy = {};
    for (j = 0; j < m; j++) {
      var len = clue[j][0];
      for (o = 0; o < f.opts[j].length; o++) {
        var colour = f.opts[j][o];
        var blocked = blockedBy[colour] || (blockedBy[colour] = blockedCounts(cells, colour));
        var diff = cover[colour] || (cover[colour] = new Int32Array(n + 1));
        for (var st = 0; st + len <= n; st++) {
          if (blocked[st + len] !== blocked[st]) continue;
          if (!(f.gap[j * w + st] || (j > 0 && endsOther(f, j - 1, st, colour)))) continue;
          if (!(bgAt(j + 1, st + len) || startsAt(j + 1, st + len, colour))) continue;
          diff[st] += 1;
          diff[st + len] -= 1;
        }
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

  /**
   * "done" when the painted cells give the clue (dots and unknowns both
   * count as background; see clueMatches); "wrong" when they do not and
   * the line is full: no unknown cell left, or as much ink painted as the
   * clue holds (so painting more cannot help), or some colour painted more
   * often than the clue can hold it; "open" otherwise.
   */
  function lineStatus(cells, clue) {
    var derived = lineClue(cells);
    if (clueMatches(derived, clue)) return "done";
    var unknown = 0;
    var g, c;
    for (var i = 0; i < cells.length; i++) if (cells[i] === UNKNOWN) unknown++;
    if (unknown === 0) return "wrong";
    var most = {}; // colour -> the most cells of it the clue can hold ("?" groups count for each of their colours)
    var want = 0;
    var have = {};
    var painted = 0;
    for (g = 0; g < clue.length; g++) {
      want += clue[g][0];
      groupColours(clue[g]).forEach(function (k) {
        most[k] = (most[k] || 0) + clue[g][0];
      });
    }
    for (g = 0; g < derived.length; g++) {
      have[derived[g][1]] = (have[derived[g][1]] || 0) + derived[g][0];
      painted += derived[g][0];
    }
    for (c in have) if ((most[c] || 0) < have[c]) return "wrong";
    return painted >= want ? "wrong" : "open";
  }

  // ------------------------------------------------------------- boards
  //
  // A board is its cells, numbered 0 .. n - 1, and its lines, each a list of
  // cell indices in reading order with its clue.  A rectangle's cells are
  // row-major and its lines are the rows, top to bottom, then the columns,
  // left to right.  A hexagon of side s (rofl.hexagon.Hexagon) has
  // 3s(s - 1) + 1 pointy-top cells numbered row by row, left to right, and
  // lines in three directions: the rows, the falling diagonals (constant q)
  // and the rising ones (constant s), each read top to bottom.

  var KINDS = {
    row: { name: "row", plural: "rows", key: "rows" },
    column: { name: "column", plural: "columns", key: "cols" },
    falling: { name: "falling diagonal", plural: "falling diagonals", key: "falling" },
    rising: { name: "rising diagonal", plural: "rising diagonals", key: "rising" },
  };

  function isHexagon(puzzle) {
    return puzzle.shape === "hexagon";
  }

  var hexCache = {};

  /**
   * A hexagon of side `side`: coords[i] = [q, r] of cell i (cube
   * coordinates, s = -q - r; r grows downwards, q to the right), index(q,
   * r) the cell there (-1 outside), and lines[d][k] the cells of line k of
   * direction d (0 rows by r, 1 falling diagonals by growing q, 2 rising
   * ones by falling s), as rofl.hexagon.Hexagon numbers them.
   */
  function hexGeometry(side) {
    if (hexCache[side]) return hexCache[side];
    var m = side - 1;
    var coords = [];
    var at = {};
    var lines = [[], [], []];
    for (var d = 0; d < 3; d++) for (var k = 0; k <= 2 * m; k++) lines[d].push([]);
    for (var r = -m; r <= m; r++) {
      for (var q = Math.max(-m, -m - r); q <= Math.min(m, m - r); q++) {
        var i = coords.length;
        coords.push([q, r]);
        at[q + "," + r] = i;
        // cells come top to bottom, so every line is in reading order
        lines[0][r + m].push(i);
        lines[1][q + m].push(i);
        lines[2][m + q + r].push(i); // s = -q - r falling: q + r growing
      }
    }
    hexCache[side] = {
      side: side,
      coords: coords,
      lines: lines,
      index: function (qq, rr) {
        var found = at[qq + "," + rr];
        return found === undefined ? -1 : found;
      },
    };
    return hexCache[side];
  }

  var boardCache = typeof WeakMap === "function" ? new WeakMap() : null;

  /**
   * The board of a puzzle: {n: cells, lines: [{kind, index, cells, clue}],
   * ofCell: for each cell, the lines through it in line order}.  Lines are
   * numbered as the puzzle lists them: a rectangle's rows then columns, a
   * hexagon's rows, falling and rising diagonals.
   */
  function boardOf(puzzle) {
    var known = boardCache && boardCache.get(puzzle);
    if (known) return known;
    var lines = [];
    var n, k;
    function add(kind, clues, cellsOf) {
      for (var j = 0; j < clues.length; j++) lines.push({ kind: kind, index: j, cells: cellsOf(j), clue: clues[j] });
    }
    if (isHexagon(puzzle)) {
      var hex = hexGeometry(puzzle.side);
      n = hex.coords.length;
      ["rows", "falling", "rising"].forEach(function (key, d) {
        add(d === 0 ? "row" : key, puzzle[key], function (j) {
          return hex.lines[d][j];
        });
      });
    } else {
      var w = puzzle.width;
      var h = puzzle.height;
      n = w * h;
      add("row", puzzle.rows, function (r) {
        var out = [];
        for (var c = 0; c < w; c++) out.push(r * w + c);
        return out;
      });
      add("column", puzzle.cols, function (c) {
        var out = [];
        for (var r = 0; r < h; r++) out.push(r * w + c);
        return out;
      });
    }
    var ofCell = new Array(n);
    for (k = 0; k < n; k++) ofCell[k] = [];
    lines.forEach(function (line, l) {
      line.cells.forEach(function (i) {
        ofCell[i].push(l);
      });
    });
    var board = { n: n, lines: lines, ofCell: ofCell };
    if (boardCache) boardCache.set(puzzle, board);
    return board;
  }

  /** "row 3", "column 1", "falling diagonal 2": a line named as rofl names it, from 1. */
  function lineName(line) {
    return KINDS[line.kind].name + " " + (line.index + 1);
  }

  function lineStates(grid, line) {
    var out = new Array(line.cells.length);
    for (var p = 0; p < out.length; p++) out[p] = grid[line.cells[p]];
    return out;
  }

  /**
   * Every line of the grid against the puzzle: statuses (`lines`, and per
   * direction under `rows` and `cols`, or `rows`, `falling` and `rising`),
   * the names of the wrong lines and of those that cannot be completed
   * (`unfitLines`: their numbers), and whether the grid is solved.
   */
  function gridReport(puzzle, grid) {
    var board = boardOf(puzzle);
    var report = { lines: [], solved: false, wrong: [], unfit: [], unfitLines: [] };
    var matched = 0;
    board.lines.forEach(function (line, l) {
      var cells = lineStates(grid, line);
      var status = lineStatus(cells, line.clue);
      var key = KINDS[line.kind].key;
      report.lines.push(status);
      (report[key] || (report[key] = [])).push(status);
      if (status === "done") matched++;
      if (status === "wrong") report.wrong.push(lineName(line));
      if (!lineFits(cells, line.clue)) {
        report.unfit.push(lineName(line));
        report.unfitLines.push(l);
      }
    });
    report.solved = matched === board.lines.length;
    return report;
  }

  /** Whether every line of the grid gives its clue (unique puzzles: the picture). */
  function isSolved(puzzle, grid) {
    var lines = boardOf(puzzle).lines;
    for (var l = 0; l < lines.length; l++) {
      if (!clueMatches(lineClue(lineStates(grid, lines[l])), lines[l].clue)) return false;
    }
    return true;
  }

  function named(line) {
    return { kind: line.kind, index: line.index };
  }

  /**
   * One step of line logic from the player's marks, for the Hint button.
   *
   * Every line is run through lineDeductions.  Returns
   *   {contradiction: L} for the first line (in the board's order: rows top
   *     to bottom, then columns left to right, or a hexagon's diagonals) that
   *     can no longer be completed: the player made a mistake there or in a
   *     crossing line, and the page, which does not know the solution,
   *     cannot say which cell;
   *   else {line: L, cells: [[i, state], ...]} for the line whose clue
   *     forces the most unknown cells (ties: the earlier line), with i the
   *     cell's index in the flat grid and state the colour k >= 1 to paint
   *     or EMPTY (-1, a dot), in line order;
   *   else deepHint's answer: no single line decides a cell from the marks
   *     alone, but lines may rule colours out of cells (only in colour
   *     puzzles, where a cell has more than two possible states).
   * L is {kind: "row" | "column" | "falling" | "rising", index: 0-based}.
   * The cells follow from the line's clue and the marks already in it, so
   * they are right whenever those marks are.
   */
  function hint(puzzle, grid) {
    var nColours = puzzle.palette.length;
    var lines = boardOf(puzzle).lines;
    var best = null;
    for (var l = 0; l < lines.length; l++) {
      var line = lines[l];
      var cells = lineStates(grid, line);
      var unknown = false;
      for (var i = 0; i < cells.length && !unknown; i++) unknown = cells[i] === UNKNOWN;
      if (!unknown) {
        // nothing to deduce, only to check
        if (!lineFits(cells, line.clue)) return { contradiction: named(line) };
        continue;
      }
      var possible = lineDeductions(cells, line.clue, nColours);
      if (possible === null) return { contradiction: named(line) };
      var forced = [];
      for (i = 0; i < cells.length; i++) {
        if (cells[i] === UNKNOWN && possible[i].length === 1) {
          forced.push([line.cells[i], possible[i][0] === 0 ? EMPTY : possible[i][0]]);
        }
      }
      if (forced.length && (best === null || forced.length > best.cells.length)) {
        best = { line: named(line), cells: forced };
      }
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
   * states out of this line's cells before (in the board's order): what
   * the player must have worked out to see it.  {contradiction: L,
   * using: [L, ...]} for the first line with no completion on the way (a
   * mistake in the marks: in L or in those lines); null when the reasoning
   * ends with no new cell decided.
   */
  function deepHint(puzzle, grid) {
    var board = boardOf(puzzle);
    var may = new Array(board.n);
    var by = new Array(board.n); // the lines that narrowed each cell
    var every = allStates(puzzle.palette.length);
    for (var i = 0; i < board.n; i++) {
      var s = grid[i];
      may[i] = s === UNKNOWN ? every : [s === EMPTY ? 0 : s];
      by[i] = null;
    }
    /** The lines other than `line` that narrowed the cells `idx`, in the board's order. */
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
        .map(function (l) {
          return named(board.lines[l]);
        });
    }
    var stop = narrowLines(puzzle, may, function (line, idx, changed) {
      var decided = [];
      changed.forEach(function (cell) {
        (by[cell] || (by[cell] = [])).push(line);
        if (grid[cell] === UNKNOWN && may[cell].length === 1) {
          decided.push([cell, may[cell][0] === 0 ? EMPTY : may[cell][0]]);
        }
      });
      if (decided.length) return { line: named(board.lines[line]), cells: decided, using: usedBy(idx, line) };
      return null;
    });
    if (stop && stop.failed !== undefined) {
      return { contradiction: named(board.lines[stop.failed]), using: usedBy(stop.idx, stop.failed) };
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
   * Lines are taken from a queue -- first every line in the board's order,
   * then each crossing line of a cell whose list shrank (in line order),
   * once at a time -- and each line's cells are narrowed to
   * lineDeductions.  After each line, `onLine(line, idx, changed)` (line:
   * its number in the board; idx: its cells; changed: those whose list
   * shrank) may return a value to stop with.  Returns that value,
   * {failed: line, idx: idx} for a line with no completion, or null at the
   * fixpoint.
   */
  function narrowLines(puzzle, may, onLine) {
    return narrowing(puzzle, may, onLine).run();
  }

  /**
   * narrowLines as a job that can pause: run(until) works until the time
   * `until` (Date.now(); none: to the end) and returns narrowLines's answer,
   * or undefined when it paused first (run it again to go on).  The page
   * works its solution out so, a slice at a time, while the player starts.
   */
  function narrowing(puzzle, may, onLine) {
    var board = boardOf(puzzle);
    var nColours = puzzle.palette.length;
    var nLines = board.lines.length;
    var queued = new Uint8Array(nLines).fill(1);
    var queue = [];
    for (var q = 0; q < nLines; q++) queue.push(q);
    var head = 0;
    var answer;
    function run(until) {
      if (answer !== undefined) return answer;
      answer = work(until === undefined ? Infinity : until);
      return answer;
    }
    function work(until) {
      for (var first = head; head < queue.length; head++) {
        if (head > first && until !== Infinity && Date.now() >= until) return undefined; // a line a slice at least
        var line = queue[head];
        queued[line] = 0;
        var idx = board.lines[line].cells;
        var possible = lineDeductions(
          idx.map(function (j) {
            return may[j];
          }),
          board.lines[line].clue,
          nColours
        );
        if (possible === null) {
          head++;
          return { failed: line, idx: idx };
        }
        var changed = [];
        for (var p = 0; p < idx.length; p++) {
          var cell = idx[p];
          if (possible[p].length === may[cell].length) continue;
          may[cell] = possible[p];
          changed.push(cell);
          var through = board.ofCell[cell];
          for (var t = 0; t < through.length; t++) {
            var crossing = through[t];
            if (crossing !== line && !queued[crossing]) {
              queued[crossing] = 1;
              queue.push(crossing);
            }
          }
        }
        if (onLine) {
          var stop = onLine(line, idx, changed);
          if (stop) {
            head++;
            return stop;
          }
        }
      }
      return null;
    }
    return { run: run };
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
    return lineSolving(puzzle).run();
  }

  /** lineSolve as a job that can pause: run(until) as narrowing's, with lineSolve's answer. */
  function lineSolving(puzzle) {
    var size = boardOf(puzzle).n;
    var may = new Array(size).fill(allStates(puzzle.palette.length));
    var job = narrowing(puzzle, may, null);
    return {
      run: function (until) {
        var stop = job.run(until);
        if (stop === undefined) return undefined;
        return stop ? null : solvedGrid(may);
      },
    };
  }

  function solvedGrid(may) {
    var size = may.length;
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

  /** The localStorage key of a puzzle: a hash of its shape, size, colour count and clues. */
  function storageKey(puzzle) {
    var canonical = isHexagon(puzzle)
      ? JSON.stringify(["hexagon", puzzle.side, puzzle.palette.length, puzzle.rows, puzzle.falling, puzzle.rising])
      : JSON.stringify([puzzle.width, puzzle.height, puzzle.palette.length, puzzle.rows, puzzle.cols]);
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

  /**
   * The cells a drag on a hexagon covers: a straight run from cell `start`
   * of a board of side `side` along whichever of the three directions the
   * pointer moved furthest along (rows first, then falling diagonals, on a
   * tie), to the cell nearest the pointer's projection on it, and no
   * further than the board's edge.  (dx, dy): the pointer's offset from
   * the start cell's centre, in cell widths (the distance between the
   * centres of neighbours), y downwards.
   */
  function hexStrokeCells(side, start, dx, dy) {
    var hex = hexGeometry(side);
    var half = Math.sqrt(3) / 2;
    // the unit step (in q, r) and the length of the pointer's offset along each direction, downwards
    var along = [
      [1, 0, dx],
      [0, 1, 0.5 * dx + half * dy],
      [-1, 1, -0.5 * dx + half * dy],
    ];
    var best = along[0];
    for (var d = 1; d < 3; d++) if (Math.abs(along[d][2]) > Math.abs(best[2])) best = along[d];
    var sign = best[2] < 0 ? -1 : 1;
    var steps = Math.round(Math.abs(best[2])); // halves away from the start, either way
    var q = hex.coords[start][0];
    var r = hex.coords[start][1];
    var out = [start];
    for (var k = 1; k <= steps; k++) {
      var i = hex.index(q + sign * k * best[0], r + sign * k * best[1]);
      if (i < 0) break;
      out.push(i);
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
    clueMatches: clueMatches,
    boardOf: boardOf,
    hexGeometry: hexGeometry,
    hexStrokeCells: hexStrokeCells,
    lineFits: lineFits,
    lineStatus: lineStatus,
    gridReport: gridReport,
    isSolved: isSolved,
    lineDeductions: lineDeductions,
    hint: hint,
    deepHint: deepHint,
    lineSolve: lineSolve,
    lineSolving: lineSolving,
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
  // the SVG namespace, as the HTML parser gives it (the page names no address, not even this one)
  var SVG_NS = (function () {
    var holder = document.createElement("div");
    holder.innerHTML = "<svg></svg>";
    return holder.firstChild.namespaceURI;
  })();

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    if (attrs) for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function svgEl(tag, attrs, text) {
    var node = document.createElementNS(SVG_NS, tag);
    if (attrs) for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** "Row 3", "Falling diagonal 2": lineName for the start of a sentence. */
  function capitalLineName(line) {
    var name = lineName(line);
    return name.charAt(0).toUpperCase() + name.slice(1);
  }

  // struck clue numbers are saved as "r3.0": a line's prefix, its number, the group's
  var STRIKE_PREFIX = { row: "r", column: "c", falling: "f", rising: "s" };

  function start() {
    var puzzle = JSON.parse(document.getElementById("rofl-puzzle").textContent);
    var hexagon = isHexagon(puzzle);
    var shape = boardOf(puzzle);
    var lines = shape.lines;
    var N = shape.n;
    var palette = puzzle.palette;
    var nColours = palette.length;
    var multi = nColours > 2;
    var grid = new Array(N).fill(UNKNOWN);
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
    var cursor = { i: 0, shown: false, goal: null };
    var hover = -1;
    var statuses = new Array(lines.length).fill("open");
    var unfit = {}; // line number -> true: Check or a hint found it cannot be completed, until it changes
    var struck = {}; // "r3.0" / "c5.2": clue numbers the player struck out
    var options = { mistakes: false, cross: false, letters: null }; // letters: null, the page's own choice
    var touchMode = "paint"; // on touch screens: a drag paints, or scrolls the board
    var zoomCell = null; // cell size in px the player zoomed to; null: fit the window
    var shownMistakes = []; // cells Check outlined
    var lineNumber = {}; // "row 2" -> its number among the lines
    lines.forEach(function (line, l) {
      lineNumber[lineName(line)] = l;
    });
    function numberOf(where) {
      return lineNumber[lineName(where)];
    }

    var board = document.getElementById("board");
    // a role that allows aria-activedescendant (the keyboard cursor's cell); the where line says the cell
    board.setAttribute("role", "group");
    // the page's controls and lines of text, by their ids (opt-mistakes as control.mistakes)
    var control = {};
    ["status", "timer", "progress", "tools", "undo", "redo", "apply", "touchmode", "reveal", "opt-mistakes", "opt-cross", "where"].forEach(
      function (id) {
        control[id.replace("opt-", "")] = document.getElementById(id);
      }
    );
    var shownHint = null; // the hint on show: its answer and the elements it marked
    var rootStyle = document.documentElement.style;
    rootStyle.setProperty("--bg", palette[0]);
    rootStyle.setProperty("--unknown", puzzle.unknown || "#ffffff"); // a tint no ink colour is near (page.py)

    // The solution, as the page's own line logic finds it (see lineSolve):
    // worked out when first needed (Check, Options), as it takes seconds on
    // a big colour puzzle; null for puzzles line logic cannot finish, where
    // Check falls back to finding the lines that cannot match their clues.
    var solution;
    var solving = lineSolving(puzzle);
    function knownSolution() {
      if (solution === undefined) {
        var found = solving.run(); // what the background slices left
        solving = null;
        solution = found && found.complete ? found.grid : null;
        if (!solution) {
          control.mistakes.disabled = true;
          control.reveal.disabled = true;
          document.getElementById("logic-note").hidden = false;
        }
      }
      return solution;
    }

    // ------------------------------------------------------------ the board
    // cellEls[i]: the element of cell i (classes f, x, mistake, cur, hl,
    // hint-...; on a rectangle a stand-in whose classes the canvas draws);
    // heads[l]: the clue of line l (classes done, wrong, hint-...).  The view
    // draws them: gridView for a rectangle, hexView (SVG) for a hexagon.
    var cellEls = new Array(N);
    var heads = new Array(lines.length);

    // colour names (rofl/picture/legibility.py: the xkcd colour survey's, by
    // ΔE2000) for screen readers and the printed key; older pages had none
    var names = puzzle.names || palette;
    var lettersOn = puzzle.letters === true; // clues carry their colour's letter (the Options can change it)

    /** "colour 2 (terracotta, b)": a colour as labels name it, its letter in letters mode. */
    function colourName(k) {
      return "colour " + k + " (" + names[k] + (lettersOn ? ", " + LETTERS.charAt(k - 1) : "") + ")";
    }

    function groupLabel(group) {
      var colours = groupColours(group);
      if (!multi) return String(group[0]);
      if (colours.length === 1) return group[0] + " of " + colourName(colours[0]);
      if (colours.length === nColours - 1) return group[0] + " of any colour";
      var named = colours.map(colourName);
      return group[0] + " of " + named.slice(0, -1).join(", ") + " or " + named[named.length - 1];
    }

    /** A clue number as HTML: its length, in a chip of its colour (colour puzzles) with its letter (shown in letters mode). */
    function chipHtml(group, k) {
      var colour = group[1];
      var data = k ? ' data-k="' + k + '"' : "";
      if (!multi || typeof colour !== "number") return '<span class="n"' + data + ">" + group[0] + "</span>";
      return '<span class="n chip k' + colour + '"' + data + ">" + group[0] + '<span class="l">' + esc(LETTERS.charAt(colour - 1)) + "</span></span>";
    }

    function chip(group) {
      var holder = document.createElement("span");
      holder.innerHTML = chipHtml(group, null);
      return holder.firstChild;
    }

    function esc(text) {
      return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
    }

    // each colour's chip colours, as classes k1, k2, ...: one rule a colour, not a style a number
    var chipStyle = document.createElement("style");
    chipStyle.textContent = palette
      .map(function (hex, k) {
        return ".k" + k + " { --chip: " + hex + "; --chip-ink: " + textOn(hex) + "; }";
      })
      .join("\n");
    document.head.appendChild(chipStyle);

    /** A chip's width in em for a number of `digits` (and its letter in letters mode): fixed, so that the bands are laid out without measuring. */
    function chipEm(digits, down) {
      return Math.max(1.3, 0.56 * digits + (lettersOn && multi && !down ? 0.55 : 0) + 0.3);
    }

    /** A chip's height in em: in letters mode a column's chips hold the letter under the number. */
    function chipHeightEm(down) {
      return lettersOn && multi && down ? 2.05 : 1.3;
    }

    function clueLabel(clue) {
      return clue.length === 0 ? "0" : clue.map(groupLabel).join(", ");
    }

    var view = hexagon ? hexView() : gridView();

    // ----------------------------------------------------------- tool bar
    var toolButtons = {};
    var toolOrder = [];
    function addTool(value, label, aria) {
      var b = el("button", { type: "button", class: "tool", "aria-pressed": "false", "aria-label": aria, title: aria });
      var sw = el("span", { class: "swatch", "aria-hidden": "true" });
      if (value > 0) sw.style.background = palette[value];
      else sw.classList.add("dot");
      if (value > 0 && multi) {
        sw.style.color = textOn(palette[value]);
        sw.appendChild(el("span", { class: "l" }, LETTERS.charAt(value - 1)));
      }
      b.appendChild(sw);
      b.appendChild(el("span", { class: "key", "aria-hidden": "true" }, label));
      b.addEventListener("click", function () {
        selectTool(value);
      });
      toolButtons[value] = b;
      toolOrder.push(value);
      control.tools.appendChild(b);
    }
    for (var k = 1; k < nColours; k++) {
      var shortcut = k <= 9 ? String(k) : "";
      var name = multi ? colourName(k) : "fill";
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
    function setFlag(l) {
      var head = heads[l];
      var status = statuses[l];
      var bad = status === "wrong" || !!unfit[l];
      head.classList.toggle("done", status === "done");
      head.classList.toggle("wrong", bad);
      var note = status === "done" ? " \u2014 matches" : bad ? " \u2014 wrong" : "";
      var label = head.dataset.label;
      if (head.getAttribute("aria-label") === label + note) return; // unchanged: no repaint
      head.setAttribute("aria-label", label + note);
      var title = label.charAt(0).toUpperCase() + label.slice(1) + note;
      if (head.namespaceURI === SVG_NS) head.querySelector("title").textContent = title;
      else head.title = title;
    }

    function refreshLine(l) {
      statuses[l] = lineStatus(lineStates(grid, lines[l]), lines[l].clue);
      setFlag(l);
      if (barLines.indexOf(l) >= 0) drawBar();
    }

    function refreshAll() {
      if (view.redraw) view.redraw();
      else for (var i = 0; i < N; i++) view.paint(i);
      for (var l = 0; l < lines.length; l++) refreshLine(l);
      afterChange();
    }

    /** Set cells (index -> state), redraw them and their lines' clues. */
    function setCells(indices, values) {
      clearHint(); // any edit makes a hint stale
      var touched = {};
      for (var n = 0; n < indices.length; n++) {
        var i = indices[n];
        grid[i] = values[n];
        if (cellEls[i].classList.contains("mistake")) {
          // Check's outline goes with the cell's change
          cellEls[i].classList.remove("mistake");
          shownMistakes.splice(shownMistakes.indexOf(i), 1);
        }
        view.paint(i);
        shape.ofCell[i].forEach(function (l) {
          touched[l] = true;
          delete unfit[l]; // a line the check flagged stays flagged until it changes
        });
      }
      for (var l in touched) refreshLine(Number(l));
    }

    function afterChange() {
      var nowSolved = statuses.every(isDone);
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
      control.undo.disabled = undoStack.length === 0;
      control.redo.disabled = redoStack.length === 0;
      var pct = solved ? 100 : progressPercent(grid);
      control.progress.textContent = pct + "%";
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
        var touched = [];
        var seen = {};
        action.idx.forEach(function (i) {
          shape.ofCell[i].forEach(function (l) {
            if (!seen[l]) touched.push(l);
            seen[l] = true;
          });
        });
        var extra = [];
        touched.forEach(function (l) {
          if (statuses[l] !== "done") return;
          lines[l].cells.forEach(function (i) {
            if (grid[i] === UNKNOWN && extra.indexOf(i) < 0) extra.push(i);
          });
        });
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

    // undo and redo: the last action of one stack moves to the other, and
    // its cells take the values from before or after it
    function moveAction(from, to, side) {
      var a = from.pop();
      if (!a) return;
      to.push(a);
      setCells(a.idx, a[side]);
      afterChange();
    }

    function undo() { moveAction(undoStack, redoStack, "before"); }

    function redo() { moveAction(redoStack, undoStack, "after"); }

    function clearAll() {
      var idx = [];
      var before = [];
      var after = [];
      for (var i = 0; i < N; i++) {
        if (grid[i] !== UNKNOWN) {
          idx.push(i);
          before.push(grid[i]);
          after.push(UNKNOWN);
        }
      }
      unfit = {};
      record({ idx: idx, before: before, after: after });
      setCells(idx, after);
      for (var l = 0; l < lines.length; l++) refreshLine(l);
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
        cellEls[i].classList.remove("mistake");
      });
      shownMistakes = [];
    }

    function showMistakes(wrong) {
      clearMistakes();
      wrong.forEach(function (i) {
        cellEls[i].classList.add("mistake");
      });
      shownMistakes = wrong;
    }

    function check() {
      clearHint();
      var report = gridReport(puzzle, grid);
      if (report.solved) {
        say(hexagon ? "Solved! Every line matches its clue." : "Solved! Every row and column matches its clue.");
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
          cellEls[wrong[0]].scrollIntoView({ block: "nearest", inline: "nearest" });
        } else {
          say("No mistakes so far; " + progressPercent(grid) + "% of cells decided.");
        }
        return;
      }
      // line logic cannot finish this puzzle, so the page does not know its
      // solution: find the lines that cannot match their clues as they stand
      unfit = {};
      report.unfitLines.forEach(function (l) {
        unfit[l] = true;
      });
      for (var l = 0; l < lines.length; l++) refreshLine(l);
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
        var left = report.lines.filter(function (s) {
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
      for (var i = 0; i < N; i++) {
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
    /** "rows 1, 2 and 5 and column 3": lines named for a message, at most six numbers of each kind. */
    function lineList(named) {
      function and(words) {
        return words.length <= 1 ? words.join("") : words.slice(0, -1).join(", ") + " and " + words[words.length - 1];
      }
      var parts = [];
      (hexagon ? ["row", "falling", "rising"] : ["row", "column"]).forEach(function (kind) {
        var numbers = named
          .filter(function (l) {
            return l.kind === kind;
          })
          .map(function (l) {
            return String(l.index + 1);
          });
        if (!numbers.length) return;
        if (numbers.length > 6) numbers = numbers.slice(0, 5).concat([numbers.length - 5 + " more"]);
        parts.push((numbers.length > 1 ? KINDS[kind].plural : KINDS[kind].name) + " " + and(numbers));
      });
      return parts.join(" and ");
    }

    function clearHint() {
      if (!shownHint) return;
      shownHint.head.classList.remove("hint-head");
      shownHint.using.forEach(function (head) {
        head.classList.remove("hint-using");
      });
      shownHint.line.forEach(function (i) {
        cellEls[i].classList.remove("hint-line");
      });
      shownHint.marked.forEach(function (i) {
        cellEls[i].classList.remove("hint-fill", "hint-empty");
        cellEls[i].style.removeProperty("--hint");
        view.paint(i);
      });
      control.apply.hidden = true;
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
      var l = numberOf(line);
      var head = heads[l];
      var using = (answer.using || []).map(function (other) {
        return heads[numberOf(other)];
      });
      shownHint = { answer: answer, head: head, line: lines[l].cells, marked: [], using: using };
      head.classList.add("hint-head");
      using.forEach(function (h) {
        h.classList.add("hint-using");
      });
      shownHint.line.forEach(function (i) {
        cellEls[i].classList.add("hint-line");
      });
      if (answer.contradiction) {
        // flagged like Check does, until the line changes
        unfit[l] = true;
        refreshLine(l);
        if (answer.using && answer.using.length) {
          say(
            capitalLineName(line) + " cannot be completed with the colours that " + lineList(answer.using) +
              " rule out of its cells (outlined) \u2014 a mark in these lines is wrong (Undo steps back)."
          );
        } else {
          say(capitalLineName(line) + " cannot be completed as it stands \u2014 check it (Undo steps back).");
        }
        head.scrollIntoView({ block: "nearest", inline: "nearest" });
        return;
      }
      var fill = 0;
      answer.cells.forEach(function (cell) {
        var target = cellEls[cell[0]];
        if (cell[1] === EMPTY) {
          target.classList.add("hint-empty");
        } else {
          target.classList.add("hint-fill");
          target.style.setProperty("--hint", palette[cell[1]]);
          fill++;
        }
        shownHint.marked.push(cell[0]);
        view.paint(cell[0]);
      });
      control.apply.hidden = false;
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
        capitalLineName(line) + ": " + n + (n === 1 ? " cell follows" : " cells follow") + from +
          " (" + parts.join(", ") + ") \u2014 press Hint again or Apply to fill " + (n === 1 ? "it." : "them.")
      );
      cellEls[shownHint.marked[0]].scrollIntoView({ block: "nearest", inline: "nearest" });
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
        say("Filled " + n + (n === 1 ? " cell" : " cells") + " in " + lineName(answer.line) +
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
      control.timer.textContent = formatTime(seconds());
    }
    setInterval(showTime, 1000);
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) {
        stopTimer();
        save(true);
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
    // save() waits until the saved state is read back; and when none was found,
    // until the player's first move: a reload whose read came before the last
    // page's write reached the store then leaves that write alone
    var restored = false;
    var keep = false;

    /** Store the state; ``leaving``: the page is being hidden, not changed by the player. */
    function save(leaving) {
      if (!storage || !restored) return;
      if (!leaving) keep = true;
      if (!keep) return;
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

    /** Take back this puzzle's saved state, if any (true); fields a newer or older page left out keep their defaults. */
    function restore() {
      if (!storage) return false;
      var saved;
      try {
        saved = JSON.parse(storage.getItem(key) || "null");
      } catch (e) {
        return false;
      }
      if (!saved || saved.v !== 1) return false;
      var back = decodeCells(saved.cells, N, nColours);
      if (!back) return false;
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
        if (typeof saved.options.letters === "boolean") options.letters = saved.options.letters;
      }
      return true;
    }
    window.addEventListener("pagehide", function () {
      save(true);
    });

    // --------------------------------------------------------------- status
    function say(text) {
      control.status.textContent = text;
    }

    // ---------------------------------------------------------- highlighting
    /** Highlight the lines through cell i (-1: none) and name the cell. */
    function setHover(i) {
      if (i === hover) return;
      view.hover(hover, false);
      hover = i;
      view.hover(i, true);
      control.where.textContent = i >= 0 ? view.cellName(i) : "";
      if (i >= 0) showBar(i);
    }

    // The clue bar: the clues of the row and the column of the cell under the
    // pointer (or the cursor, or the last touch) in full, for bands too small
    // to show them (page.css shows it when the board has class "cut").
    var barEl = document.getElementById("barclues");
    var barLines = [];
    function showBar(i) {
      if (!view.linesOf || !view.cut()) {
        if (barLines.length) barEl.textContent = "";
        barLines = [];
        return;
      }
      var want = view.linesOf(i);
      if (want.join() === barLines.join()) return;
      barLines = want;
      drawBar();
    }

    function drawBar() {
      barEl.textContent = "";
      barLines.forEach(function (l) {
        var line = lines[l];
        var part = el("span", { class: "barline" });
        part.appendChild(el("span", { class: "barname" }, (line.kind === "row" ? "R" : "C") + (line.index + 1)));
        part.appendChild(el("span", { class: "flag", "aria-hidden": "true" }, "\u2717"));
        if (line.clue.length === 0) part.appendChild(el("span", { class: "n zero" }, "0"));
        line.clue.forEach(function (group, g) {
          var n = chip(group);
          n.dataset.k = STRIKE_PREFIX[line.kind] + line.index + "." + g;
          if (struck[n.dataset.k]) n.classList.add("struck");
          part.appendChild(n);
        });
        part.classList.toggle("done", statuses[l] === "done");
        part.classList.toggle("wrong", statuses[l] === "wrong" || !!unfit[l]);
        barEl.appendChild(part);
      });
    }

    /** Strike clue number `k` ("r3.0") out, or back in: in its band and in the bar. */
    function strike(k) {
      if (struck[k]) delete struck[k];
      else struck[k] = true;
      var shown = document.querySelectorAll('[data-k="' + k + '"]');
      for (var s = 0; s < shown.length; s++) shown[s].classList.toggle("struck", !!struck[k]);
      save();
    }

    /**
     * The R, C (F, S) keys: strike the next number of the clue of the
     * cursor's row, column (falling, rising diagonal) that is not struck
     * yet; when every number is, bring them all back.
     */
    function strikeNext(kind) {
      var l = -1;
      shape.ofCell[cursor.i].forEach(function (m) {
        if (lines[m].kind === kind) l = m;
      });
      if (l < 0) return;
      var line = lines[l];
      var prefix = STRIKE_PREFIX[kind] + line.index + ".";
      var g = 0;
      while (g < line.clue.length && struck[prefix + g]) g++;
      if (g < line.clue.length) {
        strike(prefix + g);
        control.where.textContent = capitalLineName(line) + ": number " + (g + 1) + " (" + groupLabel(line.clue[g]) + ") struck out";
      } else {
        for (g = 0; g < line.clue.length; g++) strike(prefix + g);
        control.where.textContent = capitalLineName(line) + ": every number back";
      }
    }

    function stateName(v) {
      if (v === UNKNOWN) return "unknown";
      if (v === EMPTY) return "marked empty";
      return multi ? colourName(v) : "painted";
    }

    function showCursor(show) {
      var i = cursor.i;
      if (cursor.drawn !== undefined && cursor.drawn !== i) cellEls[cursor.drawn].classList.remove("cur");
      cellEls[i].classList.toggle("cur", show);
      cursor.drawn = i;
      cursor.shown = show;
      if (show) {
        if (view.cursorLabel) view.cursorLabel(view.cellName(i) + ": " + stateName(grid[i]));
        board.setAttribute("aria-activedescendant", view.cursorId ? view.cursorId(i) : cellEls[i].id);
        cellEls[i].scrollIntoView({ block: "nearest", inline: "nearest" });
      } else {
        board.removeAttribute("aria-activedescendant");
      }
    }

    /** The keyboard cursor's cell, said for screen readers (the where line is live). */
    function sayCursor() {
      control.where.textContent = view.cellName(cursor.i) + ": " + stateName(grid[cursor.i]);
    }

    // ---------------------------------------------------------------- mouse
    /** The cell under a pointer event, or -1. */
    function cellOf(e) {
      if (view.cellAt) return view.cellAt(e);
      var target = e.target;
      var node = target && target.closest ? target.closest(".cell") : null;
      if (!node || !board.contains(node) || node.dataset.i === undefined) return -1;
      return Number(node.dataset.i);
    }

    function beginStroke(i, useTool, pointerId, rect) {
      stroke = {
        start: i,
        from: grid[i],
        to: strokeTarget(grid[i], useTool),
        before: {}, // index -> state before the stroke, for cells it changed
        pointerId: pointerId,
        rect: rect, // Alt held on a rectangle: a rectangle instead of a straight run
        at: i,
        path: String(i),
      };
      view.beginStroke(stroke);
      extendStroke([i], i);
    }

    /** The stroke now covers the cells `path` (the pointer at cell `at`): set them, put the rest back. */
    function extendStroke(path, at) {
      stroke.at = at;
      stroke.path = path.join(",");
      var want = {};
      path.forEach(function (i) {
        want[i] = true;
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
      var n = path.length;
      control.where.textContent = view.cellName(at) + (n > 1 ? " \u2014 " + n + " cells" : "");
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
    var tap = null; // {id, i, x, y}: a touch in scroll mode, a tap if it ends close by
    var pan = null; // {id, x, y, left, top}: a finger on a hexagon's clues in paint mode, scrolling the board

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
      var at = cellOf(e);
      if (at < 0) {
        // the browser leaves a finger on the SVG board to the page (page.css): off the cells, it scrolls the board
        if (hexagon && e.pointerType === "touch" && touchMode === "paint" && !stroke && !pan) {
          pan = { id: e.pointerId, x: e.clientX, y: e.clientY, left: board.scrollLeft, top: board.scrollTop };
          try {
            board.setPointerCapture(e.pointerId);
          } catch (err) {
            /* not capturable (synthetic event): fine */
          }
        }
        return;
      }
      if (e.pointerType === "touch") {
        usingTouch();
        if (touchMode === "scroll") {
          tap = { id: e.pointerId, i: at, x: e.clientX, y: e.clientY };
          showBar(at);
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
      try {
        board.setPointerCapture(e.pointerId);
      } catch (err) {
        /* not capturable (synthetic event): fine */
      }
      showCursor(false);
      setHover(at); // a tap too: its lines, and their clues in the bar
      beginStroke(at, useTool, e.pointerId, e.altKey);
    });

    board.addEventListener("pointermove", function (e) {
      if (pan && e.pointerId === pan.id) {
        board.scrollLeft = pan.left - (e.clientX - pan.x);
        board.scrollTop = pan.top - (e.clientY - pan.y);
        return;
      }
      if (e.pointerId in touches) touches[e.pointerId] = [e.clientX, e.clientY];
      if (pinch && Object.keys(touches).length === 2) {
        zoomTo((pinch.cell0 * fingerDistance()) / pinch.d0);
        return;
      }
      if (stroke && e.pointerId === stroke.pointerId) {
        var to = view.strokeTo(stroke, e.clientX, e.clientY);
        setHover(to.at);
        if (to.at !== stroke.at || to.path.join(",") !== stroke.path) extendStroke(to.path, to.at);
        return;
      }
      setHover(cellOf(e));
    });

    function finish(e) {
      if (pan && e.pointerId === pan.id) pan = null;
      delete touches[e.pointerId];
      if (Object.keys(touches).length < 2) pinch = null;
      if (stroke && e.pointerId === stroke.pointerId) endStroke();
      // a finger leaves no highlight behind (the bar keeps the clues of the cell it touched)
      if (e.pointerType === "touch" && !Object.keys(touches).length) {
        view.hover(hover, false);
        hover = -1;
      }
    }
    board.addEventListener("pointerup", function (e) {
      if (tap && e.pointerId === tap.id) {
        var t = tap;
        tap = null;
        if (Math.hypot(e.clientX - t.x, e.clientY - t.y) < 12) applyAt(t.i, tool);
      }
      finish(e);
    });
    board.addEventListener("pointercancel", function (e) {
      tap = null; // the browser took the touch to scroll
      finish(e);
    });
    board.addEventListener("lostpointercapture", finish);
    board.addEventListener("pointerleave", function (e) {
      if (!stroke && e.pointerType === "mouse") setHover(-1);
    });
    board.addEventListener("contextmenu", function (e) {
      e.preventDefault();
    });

    // a click on a clue number strikes it out (or back in): the player's own bookkeeping
    function strikeClick(e) {
      var n = e.target && e.target.closest ? e.target.closest(".n") : null;
      if (n && n.dataset.k) strike(n.dataset.k);
    }
    board.addEventListener("click", strikeClick);
    barEl.addEventListener("click", strikeClick);

    function setTouchMode(mode) {
      touchMode = mode;
      var scroll = mode === "scroll";
      board.classList.toggle("scroll-mode", scroll);
      control.touchmode.setAttribute("aria-pressed", String(scroll));
      control.touchmode.title = scroll
        ? "Touch scrolls and zooms the board; a tap paints one cell. Press to paint by dragging."
        : "Touch paints by dragging; two fingers zoom. Press to scroll the board by dragging.";
      save();
    }
    control.touchmode.addEventListener("click", function () {
      setTouchMode(touchMode === "paint" ? "scroll" : "paint");
      say(
        touchMode === "scroll"
          ? "Scroll mode: drag to scroll, pinch to zoom, tap a cell to paint it."
          : "Paint mode: drag to paint a straight line, two fingers zoom."
      );
    });

    // ------------------------------------------------------------- keyboard
    function applyAt(i, useTool) {
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
      if (k === "ArrowUp" || k === "ArrowDown" || k === "ArrowLeft" || k === "ArrowRight") {
        e.preventDefault();
        var from = cursor.i;
        cursor.i = view.move(cursor, k);
        if (e.shiftKey) {
          // Shift+arrows paint a run with the tool, like a drag: one undo step until Shift is let go
          if (!stroke) {
            beginStroke(from, tool, "keys", false);
            stroke.keys = [from];
          }
          if (stroke.keys && stroke.keys[stroke.keys.length - 1] !== cursor.i) stroke.keys.push(cursor.i);
          if (stroke.keys) extendStroke(stroke.keys.slice(), cursor.i);
        }
        showCursor(true);
        setHover(cursor.i);
        sayCursor();
        if (stroke && stroke.keys && stroke.keys.length > 1) control.where.textContent += " \u2014 " + stroke.keys.length + " cells";
      } else if (view.strikeKeys && view.strikeKeys[k.toLowerCase()]) {
        e.preventDefault();
        showCursor(true);
        strikeNext(view.strikeKeys[k.toLowerCase()]);
      } else if (k === " " || k === "Enter") {
        e.preventDefault();
        showCursor(true);
        applyAt(cursor.i, tool);
        sayCursor();
      } else if (k === "." || k === "Delete" || k === "Backspace") {
        e.preventDefault();
        showCursor(true);
        if (k === ".") applyAt(cursor.i, EMPTY);
        else if (grid[cursor.i] !== UNKNOWN) applyAt(cursor.i, grid[cursor.i]);
        sayCursor();
      }
    });
    board.addEventListener("focus", function () {
      showCursor(true);
      setHover(cursor.i);
    });
    board.addEventListener("blur", function () {
      if (stroke && stroke.keys) endStroke();
      showCursor(false);
    });
    document.addEventListener("keyup", function (e) {
      if (e.key === "Shift" && stroke && stroke.keys) endStroke();
    });

    control.undo.addEventListener("click", undo);
    control.redo.addEventListener("click", redo);
    document.getElementById("check").addEventListener("click", check);
    document.getElementById("hint").addEventListener("click", hintPress);
    control.apply.addEventListener("click", function () {
      if (shownHint && shownHint.answer.cells) applyHint();
    });
    document.getElementById("clear").addEventListener("click", clearAll);
    control.reveal.addEventListener("click", reveal);
    control.mistakes.addEventListener("change", function () {
      options.mistakes = control.mistakes.checked;
      if (options.mistakes && !solved && knownSolution()) showMistakes(wrongCells(grid, solution));
      else clearMistakes();
      save();
    });
    control.cross.addEventListener("change", function () {
      options.cross = control.cross.checked;
      save();
    });
    var lettersBox = document.getElementById("opt-letters");
    function setLetters(on) {
      lettersOn = on;
      lettersBox.checked = on;
      document.body.classList.toggle("letters", on);
      if (view.relayout) view.relayout();
    }
    lettersBox.addEventListener("change", function () {
      options.letters = lettersBox.checked;
      setLetters(options.letters);
      save();
    });
    // narrow screens fold the zoom, the counters and the options behind one button
    var moreBtn = document.getElementById("more");
    moreBtn.addEventListener("click", function () {
      var open = !document.body.classList.contains("more-open");
      document.body.classList.toggle("more-open", open);
      moreBtn.setAttribute("aria-expanded", String(open));
      fit();
    });

    // the key: each colour's swatch, number (letter) and name; printed under the grid
    var keyEl = document.getElementById("key");
    if (multi) {
      for (var kk = 0; kk < nColours; kk++) {
        var entry = el("span", { class: "entry" });
        var sw2 = el("span", { class: "swatch" });
        sw2.style.background = palette[kk];
        entry.appendChild(sw2);
        if (kk === 0) entry.appendChild(el("span", null, "blank: " + names[0]));
        else {
          entry.appendChild(el("span", null, String(kk)));
          entry.appendChild(el("span", { class: "lt" }, "(" + LETTERS.charAt(kk - 1) + ")"));
          entry.appendChild(el("span", null, names[kk]));
        }
        keyEl.appendChild(entry);
      }
    } else {
      keyEl.hidden = true;
    }

    // ------------------------------------------------------ cell size, zoom
    var printing = false;
    var pageSize = document.createElement("style"); // the paper's orientation, chosen when printing (fit)
    pageSize.id = "page-size";
    document.head.appendChild(pageSize);
    var MIN_CELL = 8;
    var MAX_CELL = 64;

    function clampCell(px) {
      return Math.max(MIN_CELL, Math.min(MAX_CELL, Math.round(px)));
    }

    function currentCell() {
      return parseFloat(rootStyle.getPropertyValue("--cell")) || 24;
    }

    /** The cell size that fits the window (or the paper), unless the player zoomed. */
    function fit() {
      var rect = board.getBoundingClientRect();
      // the board's place on the page, not in the window: the page may be scrolled
      var top = rect.top + window.scrollY;
      var availW;
      var availH;
      if (printing) {
        // A4 less page.css's margins (Letter-safe), less the title and the key (CSS px), on whichever side
        // gives the larger cells
        var around = document.querySelector("header").offsetHeight + (multi ? keyEl.offsetHeight + 12 : 0);
        var upright = view.fitCell(700, 1000 - around, 0);
        var across = view.fitCell(1010, 690 - around, 0);
        var landscape = across > upright * 1.05;
        pageSize.textContent = "@page { size: A4 " + (landscape ? "landscape" : "portrait") + "; }";
        availW = landscape ? 1010 : 700;
        availH = (landscape ? 690 : 1000) - around;
      } else {
        availW = Math.max(120, document.documentElement.clientWidth - 2 * Math.max(0, rect.left));
        availH = Math.max(160, window.innerHeight - top - 8);
      }
      var least = 20; // a cell a finger hits, and whose column holds a legible number
      var fitted = view.fitCell(availW, availH, least);
      view.setCell(zoomCell !== null && !printing ? zoomCell : fitted);
      // a board taller than the window scrolls inside itself, its clues kept in view (the bar above it may
      // have grown with the cells: the clues it shows)
      if (!printing) availH = Math.max(160, window.innerHeight - (board.getBoundingClientRect().top + window.scrollY) - 8);
      rootStyle.setProperty("--board-h", printing ? "none" : availH + "px");
      if (view.show) view.show();
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
      view.setCell(cell);
      board.scrollLeft = left;
      board.scrollTop = top;
      zoomLabel();
      save();
    }

    function zoomBy(factor, anchor) {
      var now = currentCell();
      zoomTo(factor > 1 ? Math.max(now + 1, now * factor) : Math.min(now - 1, now * factor), anchor);
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
      setHover(-1);
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
      if (hexagon) {
        return "Left button paints, right button marks a cell empty; drag along a row or a diagonal for a straight line.";
      }
      return "Left button paints, right button marks a cell empty; drag for a straight line, Alt+drag for a rectangle.";
    }

    // -------------------------------------------------------- the grid view
    /**
     * A rectangle: its cells drawn on one canvas, its clues in two bands of
     * HTML (the column clues above, the row clues to the left) kept in view
     * while the board scrolls.  Only what changes is redrawn: a move paints
     * its cells, a hover the two lines it crosses, a clue its own element.
     *
     * The clue numbers keep one reading size whatever the cells' (smaller
     * only when a number no longer fits a column); below a legible size a
     * band turns compact (a strip that shows each line's status) and the
     * clue bar above the board shows the clues of the cell under the
     * pointer or the cursor.  A band is at most as deep as leaves at least
     * 12 cells (or the whole board) in view: a longer clue shows its last
     * numbers after "...", and the bar shows it whole.  So chips never
     * overlap, at any zoom.
     *
     * cellEls[i] is a light stand-in for an element (classList, style,
     * scrollIntoView) whose classes are flags the canvas draws.
     */
    function gridView() {
      var W = puzzle.width;
      var H = puzzle.height;
      var O = 1; // the canvas's margin for the outer thick line
      var wrap = el("div", { class: "gridwrap" });
      var corner = el("div", { class: "corner" });
      var colBand = el("div", { class: "colband" });
      var rowBand = el("div", { class: "rowband" });
      var area = el("div", { class: "cellarea" });
      // the cells on canvases of TILE x TILE cells each: a change hands the compositor only its tiles again
      var TILE = 5 * Math.max(2, Math.ceil(Math.max(W, H) / 60)); // 10 cells, more on a huge board: 144 tiles at most
      var tilesX = Math.ceil(W / TILE);
      var tilesY = Math.ceil(H / TILE);
      var tiles = [];
      var cursorEl = el("div", { class: "cursor", id: "cell-cursor", role: "img", "aria-label": "" });
      // the hovered row's and column's clues are tinted by a layer of their own moved over the band, so that
      // a hover repaints no clue (a band of a big board holds thousands of numbers)
      var rowMark = el("div", { class: "linemark row", "aria-hidden": "true" });
      var colMark = el("div", { class: "linemark col", "aria-hidden": "true" });
      for (var t = 0; t < tilesX * tilesY; t++) {
        var tile = el("canvas", { class: "cells", "aria-hidden": "true" });
        area.appendChild(tile);
        tiles.push({ canvas: tile, ctx: tile.getContext("2d", { alpha: false }), tx: t % tilesX, ty: Math.floor(t / tilesX) });
      }
      area.appendChild(cursorEl);
      wrap.appendChild(corner);
      wrap.appendChild(colBand);
      wrap.appendChild(rowBand);
      wrap.appendChild(area);
      var ctx = tiles[0].ctx; // the tile being drawn
      var cell = 24;
      var flags = new Uint8Array(N);
      var hintColour = {};
      var HL = 1;
      var HINT_LINE = 2;
      var MISTAKE = 4;
      var HINT_FILL = 8;
      var HINT_EMPTY = 16;
      var CUR = 32;
      var BITS = { hl: HL, hlc: HL, "hint-line": HINT_LINE, mistake: MISTAKE, "hint-fill": HINT_FILL, "hint-empty": HINT_EMPTY, cur: CUR };
      var rowHeads = [];
      var colHeads = [];
      var chipsOf = []; // per line: [{node, em}] its numbers, in clue order
      var avail = null; // [width, height] the last fit had
      var cursorAt = -1;

      /**
       * The bands as HTML text (one parse: thousands of numbers on a big
       * board), then their elements: each line's head holds its flag, the
       * ellipsis of a cut clue, and its numbers.
       */
      function headHtml(cls, clue, prefix, label) {
        var out = '<div class="' + cls + '" role="note" data-label="' + esc(label + ": " + clueLabel(clue)) + '">';
        out += '<span class="flag" aria-hidden="true">\u2717</span><span class="more" aria-hidden="true">\u2026</span>';
        if (clue.length === 0) out += '<span class="n zero">0</span>';
        for (var g = 0; g < clue.length; g++) out += chipHtml(clue[g], prefix + "." + g);
        return out + "</div>";
      }

      function collect(band, heads, clues) {
        var nodes = band.querySelectorAll(".rc, .cc");
        for (var j = 0; j < nodes.length; j++) {
          var node = nodes[j];
          heads.push(node);
          var chips = [];
          chips.more = node.children[1];
          for (var g = 2; g < node.children.length; g++) {
            chips.push({ node: node.children[g], digits: clues[j].length ? String(clues[j][g - 2][0]).length : 1 });
          }
          chipsOf.push(chips);
        }
      }

      // heads in groups of ten lines, each skipped by layout and paint while out of sight (content-visibility):
      // twenty such groups on a 100x100 board, few enough for the compositor
      var html = [];
      for (var r = 0; r < H; r++) {
        if (r % 10 === 0) html.push('<div class="grp" style="--n: ' + Math.min(10, H - r) + '">');
        html.push(headHtml("rc" + ((r + 1) % 5 === 0 && r + 1 < H ? " b5" : ""), puzzle.rows[r], "r" + r, "row " + (r + 1)));
        if (r % 10 === 9 || r === H - 1) html.push("</div>");
      }
      rowBand.innerHTML = html.join("");
      html = [];
      for (var c = 0; c < W; c++) {
        if (c % 10 === 0) html.push('<div class="grp" style="--n: ' + Math.min(10, W - c) + '">');
        html.push(headHtml("cc" + ((c + 1) % 5 === 0 && c + 1 < W ? " b5" : ""), puzzle.cols[c], "c" + c, "column " + (c + 1)));
        if (c % 10 === 9 || c === W - 1) html.push("</div>");
      }
      colBand.innerHTML = html.join("");
      collect(rowBand, rowHeads, puzzle.rows);
      collect(colBand, colHeads, puzzle.cols);
      rowHeads.concat(colHeads).forEach(function (h, l) {
        heads[l] = h;
      });
      rowBand.appendChild(rowMark);
      colBand.appendChild(colMark);
      wrap.style.display = "none"; // until the first setCell: one layout of the bands, at their size
      board.appendChild(wrap);

      // the stand-ins for cell elements: their classes are flags the canvas draws
      function Classes(i) {
        this.i = i;
      }
      Classes.prototype.set = function (name, on) {
        var bit = BITS[name] || 0;
        var i = this.i;
        var had = (flags[i] & bit) !== 0;
        if (!bit || had === on) return;
        flags[i] ^= bit;
        if (bit === CUR) placeCursor(on ? i : cursorAt === i ? -1 : cursorAt);
        else paint(i);
      };
      Classes.prototype.add = function () {
        for (var a = 0; a < arguments.length; a++) this.set(arguments[a], true);
      };
      Classes.prototype.remove = function () {
        for (var a = 0; a < arguments.length; a++) this.set(arguments[a], false);
      };
      Classes.prototype.toggle = function (name, on) {
        var want = on === undefined ? !this.contains(name) : !!on;
        this.set(name, want);
        return want;
      };
      Classes.prototype.contains = function (name) {
        return ((flags[this.i] & (BITS[name] || 0)) !== 0) || (name === "f" && grid[this.i] > 0) || (name === "x" && grid[this.i] === EMPTY);
      };
      function Style(i) {
        this.i = i;
      }
      Style.prototype.setProperty = function (name, value) {
        if (name === "--hint") hintColour[this.i] = value;
      };
      Style.prototype.removeProperty = function (name) {
        if (name === "--hint") delete hintColour[this.i];
      };
      function Cell(i) {
        this.id = "cell-" + i;
        this.i = i;
        this.classList = new Classes(i);
        this.style = new Style(i);
      }
      Cell.prototype.scrollIntoView = function () {
        reveal(this.i);
      };
      for (var i = 0; i < N; i++) cellEls[i] = new Cell(i);

      // ---- drawing
      var tint = puzzle.unknown || "#ffffff";
      var hatch = null;
      function hatchPattern() {
        var tile = document.createElement("canvas");
        tile.width = tile.height = 6;
        var t = tile.getContext("2d");
        t.strokeStyle = "rgba(0, 0, 0, 0.11)";
        t.lineWidth = 1;
        t.beginPath();
        t.moveTo(-1, 7);
        t.lineTo(7, -1);
        t.stroke();
        return ctx.createPattern(tile, "repeat");
      }

      function thick(k, n) {
        return k === 0 || k === n || k % 5 === 0;
      }

      function paint(i) {
        if (!hatch) return; // not laid out yet: setCell draws everything
        var r = Math.floor(i / W);
        var c = i % W;
        ctx = tiles[Math.floor(r / TILE) * tilesX + Math.floor(c / TILE)].ctx;
        var x = O + c * cell + 1;
        var y = O + r * cell + 1;
        // the interior: past the line on its left (or top), short of a thick one on its right
        var w = cell - 1 - (thick(c + 1, W) ? 1 : 0);
        var h = cell - 1 - (thick(r + 1, H) ? 1 : 0);
        var v = grid[i];
        var f = printing ? 0 : flags[i]; // paper: the cells alone, no highlight, hint or Check outline
        var bg;
        if (v > 0) bg = palette[v];
        else if (solved) bg = palette[0];
        else if (f & HINT_LINE) bg = "#fff1c9";
        else if (f & HL) bg = "#d6e4ff";
        else bg = v === EMPTY ? palette[0] : printing ? "#ffffff" : tint; // paper: unknown cells blank
        ctx.fillStyle = bg;
        ctx.fillRect(x, y, w, h);
        if (solved) return;
        if (v === UNKNOWN && !printing) {
          ctx.fillStyle = hatch;
          ctx.fillRect(x, y, w, h);
        } else if (v === EMPTY && !(f & HINT_EMPTY)) {
          cross(x, y, w, h, textOn(bg) === "#000000" ? "#6b6b6b" : "#c8c8c8", Math.max(1, cell / 14));
        }
        if (f & (HINT_FILL | HINT_EMPTY)) {
          ctx.save();
          ctx.strokeStyle = "#9a5b00";
          ctx.lineWidth = 1.5;
          ctx.setLineDash([3, 2]);
          ctx.strokeRect(x + 1.5, y + 1.5, w - 3, h - 3);
          ctx.restore();
          if (f & HINT_FILL) {
            ctx.beginPath();
            ctx.arc(x + w / 2, y + h / 2, Math.max(2, cell * 0.2), 0, 2 * Math.PI);
            ctx.fillStyle = hintColour[i] || "#000";
            ctx.fill();
            ctx.lineWidth = 1;
            ctx.strokeStyle = "#000";
            ctx.stroke();
          } else {
            cross(x, y, w, h, "#9a5b00", Math.max(1.5, cell / 10));
          }
        }
        if (f & MISTAKE) {
          ctx.strokeStyle = "#c00000";
          ctx.lineWidth = Math.max(2, Math.min(3, cell / 8));
          ctx.strokeRect(x + ctx.lineWidth / 2, y + ctx.lineWidth / 2, w - ctx.lineWidth, h - ctx.lineWidth);
          ctx.fillStyle = "#c00000";
          ctx.beginPath();
          ctx.moveTo(x, y);
          ctx.lineTo(x + w * 0.4, y);
          ctx.lineTo(x, y + h * 0.4);
          ctx.fill();
        }
      }

      function cross(x, y, w, h, colour, width) {
        var m = Math.min(w, h) * 0.28;
        ctx.strokeStyle = colour;
        ctx.lineWidth = width;
        ctx.beginPath();
        ctx.moveTo(x + m, y + m);
        ctx.lineTo(x + w - m, y + h - m);
        ctx.moveTo(x + w - m, y + m);
        ctx.lineTo(x + m, y + h - m);
        ctx.stroke();
      }

      /** Every tile: the lines (in the board's coordinates, each tile showing its part), then every cell. */
      function drawAll() {
        var cw = W * cell + 2 * O;
        var chh = H * cell + 2 * O;
        tiles.forEach(function (tile) {
          ctx = tile.ctx;
          ctx.fillStyle = "#8c8c8c"; // thin lines: 3.4:1 on white
          ctx.fillRect(0, 0, cw, chh);
          ctx.fillStyle = "#222222";
          for (var k = 0; k <= W; k++) if (thick(k, W)) ctx.fillRect(O + k * cell - 1, 0, 2, chh);
          for (k = 0; k <= H; k++) if (thick(k, H)) ctx.fillRect(0, O + k * cell - 1, cw, 2);
        });
        for (var j = 0; j < N; j++) paint(j);
      }

      /** Where tile edge k (of n tiles, over `cells` cells) stands, in px: the outer ones take the outline. */
      function tileEdge(k, n, cells) {
        return k === 0 ? 0 : k === n ? cells * cell + 2 * O : O + k * TILE * cell;
      }

      // ---- clue bands
      function fonts() {
        var uiFont = document.documentElement.clientWidth <= 600 ? 12 : 13;
        // on paper the numbers grow with the cells, as on rofl's sheets
        var base = printing ? Math.max(6.5, Math.min(14, cell * 0.6)) : uiFont;
        return { row: Math.min(base, (cell - 3) / 1.3), col: Math.min(base, (cell - 2) / sums().colEm) };
      }

      /** The band's natural depth in px at font `f`: the longest row clue's width, the deepest column clue's height. */
      function natural(f) {
        var m = sums();
        var w = 0;
        for (var r = 0; r < H; r++) w = Math.max(w, m.rowEm[r] * f + 2 * chipsOf[r].length);
        return [Math.ceil(w + 8), Math.ceil(m.colMost * (chipHeightEm(true) * f + 2) + 5)];
      }

      /** Per row the width of its numbers in em; the widest column number in em; the most numbers in a column. */
      var measured = null;
      function sums() {
        if (measured) return measured;
        measured = { rowEm: new Float64Array(H), colEm: 1.3, colMost: 0 };
        for (var r = 0; r < H; r++) {
          for (var g = 0; g < chipsOf[r].length; g++) measured.rowEm[r] += chipEm(chipsOf[r][g].digits);
        }
        for (var c = 0; c < W; c++) {
          var chips = chipsOf[H + c];
          measured.colMost = Math.max(measured.colMost, chips.length);
          for (g = 0; g < chips.length; g++) measured.colEm = Math.max(measured.colEm, chipEm(chips[g].digits, true));
        }
        return measured;
      }

      var MIN_FONT = 8; // px: smaller, a band turns compact (on screen; paper has no bar, so it keeps its numbers)
      var compactRows = false;
      var compactCols = false;
      var cut = false;

      function layoutBands() {
        var f = fonts();
        compactRows = !printing && f.row < MIN_FONT;
        compactCols = !printing && f.col < MIN_FONT;
        var bandW = compactRows ? 6 : Math.ceil(natural(f.row)[0]);
        var bandH = compactCols ? 6 : Math.ceil(natural(f.col)[1]);
        if (!printing && avail) {
          // a board that does not fit: bands of at most 40% of the window, leaving at least 12 cells (or the
          // whole board) beside and under them, and room for 3 numbers
          var minW = compactRows ? 6 : Math.ceil(chipEm(2) * f.row + 2 + 1.2 * f.row + 8);
          var minH = compactCols ? 6 : Math.ceil(3 * (chipHeightEm(true) * f.col + 2) + 5);
          if (bandW + W * cell + 2 * O + 2 > avail[0]) {
            bandW = Math.max(minW, Math.min(bandW, 0.4 * avail[0], avail[0] - Math.min(W, 12) * cell - 2 * O - 2));
          }
          if (bandH + H * cell + 2 * O + 2 > avail[1]) {
            bandH = Math.max(minH, Math.min(bandH, 0.4 * avail[1], avail[1] - Math.min(H, 12) * cell - 2 * O - 2));
          }
          bandW = Math.floor(bandW);
          bandH = Math.floor(bandH);
        }
        rootStyle.setProperty("--row-clue", f.row + "px");
        rootStyle.setProperty("--col-clue", f.col + "px");
        rootStyle.setProperty("--band-w", bandW + "px");
        rootStyle.setProperty("--band-h", bandH + "px");
        rowBand.classList.toggle("compact", compactRows);
        colBand.classList.toggle("compact", compactCols);
        cut = compactRows || compactCols;
        // a clue longer than its band shows its last numbers after an ellipsis
        for (var r = 0; r < H; r++) cut = fitChips(chipsOf[r], bandW - 8, f.row, true) || cut;
        for (var c = 0; c < W; c++) cut = fitChips(chipsOf[H + c], bandH - 5, f.col, false) || cut;
        board.classList.toggle("cut", cut);
        document.body.classList.toggle("clues-cut", cut);
      }

      function fitChips(chips, room, f, across) {
        var used = 0;
        var shown = chips.length;
        var size = function (c) {
          return (across ? chipEm(c.digits) * f : chipHeightEm(true) * f) + 2;
        };
        var total = 0;
        chips.forEach(function (c) {
          total += size(c);
        });
        var more = f + 2; // the ellipsis: 1em wide (page.css), a line high
        if (total > room) {
          used = more;
          shown = 0;
          for (var k = chips.length - 1; k >= 0 && used + size(chips[k]) <= room; k--) {
            used += size(chips[k]);
            shown++;
          }
        }
        var first = chips.length - shown;
        for (var k2 = 0; k2 < chips.length; k2++) {
          var node = chips[k2].node;
          node.classList.toggle("hid", k2 < first);
          var width = chipEm(chips[k2].digits, !across) + "em";
          if (node.style.width !== width) node.style.width = width;
        }
        chips.more.classList.toggle("on", first > 0);
        return first > 0;
      }

      function setCell(px) {
        cell = px;
        rootStyle.setProperty("--cell", cell + "px");
        var cssW = W * cell + 2 * O;
        var cssH = H * cell + 2 * O;
        var scale = Math.min(printing ? 3 : window.devicePixelRatio || 1, 16384 / cssW, 16384 / cssH);
        area.style.width = cssW + "px";
        area.style.height = cssH + "px";
        tiles.forEach(function (tile) {
          var x0 = tileEdge(tile.tx, tilesX, W);
          var y0 = tileEdge(tile.ty, tilesY, H);
          var w = tileEdge(tile.tx + 1, tilesX, W) - x0;
          var h = tileEdge(tile.ty + 1, tilesY, H) - y0;
          var style = tile.canvas.style;
          style.left = x0 + "px";
          style.top = y0 + "px";
          style.width = w + "px";
          style.height = h + "px";
          tile.canvas.width = Math.max(1, Math.round(w * scale));
          tile.canvas.height = Math.max(1, Math.round(h * scale));
          var sx = tile.canvas.width / w;
          var sy = tile.canvas.height / h;
          tile.ctx.setTransform(sx, 0, 0, sy, -x0 * sx, -y0 * sy);
        });
        ctx = tiles[0].ctx;
        hatch = hatchPattern();
        drawAll();
        layoutBands();
        placeCursor(cursorAt);
      }

      function placeCursor(i) {
        cursorAt = i;
        if (i < 0) {
          cursorEl.style.display = "none";
          return;
        }
        cursorEl.style.display = "block";
        cursorEl.style.left = O + (i % W) * cell + "px";
        cursorEl.style.top = O + Math.floor(i / W) * cell + "px";
      }

      /** Scroll the board so that cell i shows beside the bands. */
      function reveal(i) {
        var cx = O + (i % W) * cell;
        var cy = O + Math.floor(i / W) * cell;
        var bw = rowBand.offsetWidth;
        var bh = colBand.offsetHeight;
        var viewW = board.clientWidth - bw;
        var viewH = board.clientHeight - bh;
        if (cx < board.scrollLeft) board.scrollLeft = cx;
        else if (cx + cell > board.scrollLeft + viewW) board.scrollLeft = cx + cell - viewW;
        if (cy < board.scrollTop) board.scrollTop = cy;
        else if (cy + cell > board.scrollTop + viewH) board.scrollTop = cy + cell - viewH;
      }

      function at(x, y, clamp) {
        var rect = area.getBoundingClientRect();
        var c = Math.floor((x - rect.left - O) / cell);
        var r = Math.floor((y - rect.top - O) / cell);
        if (clamp) {
          c = Math.max(0, Math.min(W - 1, c));
          r = Math.max(0, Math.min(H - 1, r));
        } else if (c < 0 || r < 0 || c >= W || r >= H) return -1;
        return r * W + c;
      }

      return {
        paint: paint,
        cellName: function (i) {
          return "row " + (Math.floor(i / W) + 1) + ", column " + ((i % W) + 1);
        },
        cellAt: function (e) {
          return e.target && e.target.parentNode === area && e.target !== cursorEl ? at(e.clientX, e.clientY, false) : -1;
        },
        box: function (i) {
          var rect = area.getBoundingClientRect();
          return { x: rect.left + O + (i % W) * cell, y: rect.top + O + Math.floor(i / W) * cell, width: cell, height: cell };
        },
        cursorId: function () {
          return cursorEl.id;
        },
        cursorLabel: function (text) {
          cursorEl.setAttribute("aria-label", text);
        },
        linesOf: function (i) {
          return [Math.floor(i / W), H + (i % W)];
        },
        hover: function (i, on) {
          if (i < 0) return;
          var r = Math.floor(i / W);
          var c = i % W;
          rowMark.style.display = colMark.style.display = on ? "block" : "none";
          rowMark.style.transform = "translateY(" + (O + r * cell) + "px)";
          colMark.style.transform = "translateX(" + (O + c * cell) + "px)";
          for (var k = 0; k < W; k++) cellEls[r * W + k].classList.toggle("hl", on);
          for (k = 0; k < H; k++) cellEls[k * W + c].classList.toggle("hl", on);
        },
        beginStroke: function () {
        },
        strokeTo: function (s, x, y) {
          var to = at(x, y, true);
          var r = Math.floor(to / W);
          var c = to % W;
          var path = (s.rect ? rectCells : strokeCells)(Math.floor(s.start / W), s.start % W, r, c).map(function (rc) {
            return rc[0] * W + rc[1];
          });
          return { at: r * W + c, path: path };
        },
        move: function (cur, k) {
          var moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
          var r = Math.min(H - 1, Math.max(0, Math.floor(cur.i / W) + moves[k][0]));
          var c = Math.min(W - 1, Math.max(0, (cur.i % W) + moves[k][1]));
          return r * W + c;
        },
        redraw: function () {
          if (hatch) drawAll();
        },
        setCell: setCell,
        /** Show the board: the first fit keeps it hidden until the page's layout above it is measured. */
        show: function () {
          wrap.style.display = "";
        },
        relayout: function () {
          measured = null; // letters change the numbers' widths
          layoutBands();
        },
        cut: function () {
          return cut;
        },
        strikeKeys: { r: "row", c: "column" },
        /**
         * The cell size that fits `availW` x `availH` px: the whole board with
         * its bands when cells of at least `least` px allow it (up to 36 px),
         * else cells of `least` px and the bands kept to leave 12 cells.
         */
        fitCell: function (availW, availH, least) {
          avail = [availW, availH];
          var best = 0;
          for (var px = printing ? 60 : 36; px >= 3; px -= 0.5) {
            cell = px;
            var f = fonts();
            var fr = f.row < MIN_FONT && !printing ? 0 : f.row;
            var fc = f.col < MIN_FONT && !printing ? 0 : f.col;
            var bw = fr ? natural(fr)[0] : 6;
            var bh = fc ? natural(fc)[1] : 6;
            if (bw + W * px + 2 * O + 2 <= availW && bh + H * px + 2 * O + 2 <= availH) {
              best = px;
              break;
            }
          }
          if (printing) return Math.max(3, best);
          return best >= least ? Math.floor(best) : least;
        },
      };
    }

    // ----------------------------------------------------- the hexagon view
    /**
     * A hexagon as SVG, laid out as rofl's hexagonal sheets are
     * (rofl/render/hexlayout.py): pointy-top cells of circumradius R, row
     * clues to the left of the board, rising diagonals' clues beyond their
     * top end, falling diagonals' beyond their bottom end, each on its
     * line's axis with a guide line to the board and read top to bottom
     * along it.  Each cell is a <g class="cell"> holding its hexagon, an
     * inner ring (the cursor, Check's and the hint's outlines) and a mark
     * (x for a dot, the hint's marker).  The SVG scales with --cell, the
     * distance between neighbouring cells' centres in px.
     */
    function hexView() {
      var R = 12;
      var SQ3 = Math.sqrt(3);
      var CW = SQ3 * R; // between neighbours' centres
      var FONT = 0.85 * R;
      var STEP = 1.25 * R; // between numbers along a diagonal
      var DIGIT = 0.62 * FONT;
      var hex = hexGeometry(puzzle.side);
      var bounds = [Infinity, Infinity, -Infinity, -Infinity];
      function grow(x1, y1, x2, y2) {
        bounds = [Math.min(bounds[0], x1), Math.min(bounds[1], y1), Math.max(bounds[2], x2), Math.max(bounds[3], y2)];
      }
      function centre(i) {
        var q = hex.coords[i][0];
        var r = hex.coords[i][1];
        return [CW * (q + r / 2), 1.5 * R * r];
      }
      function corners(x, y, radius) {
        var out = [];
        for (var a = 30; a < 390; a += 60) {
          var t = (a * Math.PI) / 180;
          out.push((x + radius * Math.cos(t)).toFixed(2) + "," + (y + radius * Math.sin(t)).toFixed(2));
        }
        return out.join(" ");
      }
      var svg = svgEl("svg", { class: "hex" });
      var cellLayer = svgEl("g", { class: "cells" });
      var clueLayer = svgEl("g", { class: "clues", "font-size": FONT.toFixed(2) });
      svg.appendChild(cellLayer);
      svg.appendChild(clueLayer);
      var marks = new Array(N);
      var polys = new Array(N);
      for (var i = 0; i < N; i++) {
        var c = centre(i);
        var g = svgEl("g", { class: "cell", id: "cell-" + i });
        g.dataset.i = String(i);
        polys[i] = svgEl("polygon", { class: "hexagon", points: corners(c[0], c[1], R) });
        g.appendChild(polys[i]);
        g.appendChild(svgEl("polygon", { class: "halo", points: corners(c[0], c[1], 0.72 * R) }));
        g.appendChild(svgEl("polygon", { class: "ring", points: corners(c[0], c[1], 0.72 * R) }));
        marks[i] = svgEl("text", { class: "mark", x: c[0].toFixed(2), y: (c[1] + 0.36 * R).toFixed(2) });
        g.appendChild(marks[i]);
        cellLayer.appendChild(g);
        cellEls[i] = g;
        grow(c[0] - R, c[1] - R, c[0] + R, c[1] + R);
      }

      /** One clue number: a group of an optional box, its text and the slash a strike draws, centred on (x, y). */
      function number(parent, group, x, y, anchor, k) {
        var set = group !== null && typeof group[1] !== "number";
        var text = group === null ? "0" : group[0] + (set ? "?" : "");
        var lettered = group !== null && multi && !set; // room for its letter, shown in letters mode (page.css)
        var width = (Math.max(1, text.length) + (lettered ? 0.9 : 0)) * DIGIT;
        var left = anchor === "end" ? x - width : x - width / 2;
        var n = svgEl("g", { class: "n" });
        var box = [left - 1.5, y - FONT * 0.62, left + width + 1.5, y + FONT * 0.62];
        if (group !== null && (multi || set)) {
          var fill = set ? "#dddddd" : palette[group[1]];
          n.classList.add("chip");
          n.style.setProperty("--chip", set ? "#999999" : fill);
          n.appendChild(
            svgEl("rect", {
              x: box[0].toFixed(2),
              y: box[1].toFixed(2),
              width: (box[2] - box[0]).toFixed(2),
              height: (box[3] - box[1]).toFixed(2),
              fill: fill,
            })
          );
          if (set) n.appendChild(svgEl("path", { class: "hatch", d: hatching(box) }));
        }
        if (n.classList.contains("chip")) n.style.setProperty("--chip-ink", set ? "#000000" : textOn(palette[group[1]]));
        var label = svgEl("text", { x: x.toFixed(2), y: (y + FONT * 0.36).toFixed(2), "text-anchor": anchor }, text);
        if (lettered) label.appendChild(svgEl("tspan", { class: "l" }, LETTERS.charAt(group[1] - 1)));
        n.appendChild(label);
        if (k !== null) {
          n.dataset.k = k;
          n.appendChild(
            svgEl("line", {
              class: "slash",
              x1: box[0].toFixed(2),
              y1: box[3].toFixed(2),
              x2: box[2].toFixed(2),
              y2: box[1].toFixed(2),
            })
          );
        }
        parent.appendChild(n);
        grow(box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1);
        return box;
      }

      /** A "?" group's box is hatched, as on the sheets: strokes at 45 degrees, 3 units apart, inside `box`. */
      function hatching(box) {
        var d = [];
        for (var k = box[0] + box[1] + 1.5; k < box[2] + box[3]; k += 3) {
          var lo = Math.max(box[0], k - box[3]);
          var hi = Math.min(box[2], k - box[1]);
          if (hi - lo > 0.2) d.push("M" + lo.toFixed(2) + " " + (k - lo).toFixed(2) + "L" + hi.toFixed(2) + " " + (k - hi).toFixed(2));
        }
        return d.join("");
      }

      function flag(parent, x, y, anchor) {
        parent.appendChild(
          svgEl(
            "text",
            { class: "flag", x: x.toFixed(2), y: (y + FONT * 0.36).toFixed(2), "text-anchor": anchor, "aria-hidden": "true" },
            "\u2717"
          )
        );
        grow(anchor === "end" ? x - FONT : x - FONT / 2, y - FONT * 0.62, x + FONT / 2, y + FONT * 0.62);
      }

      lines.forEach(function (line, l) {
        var head = svgEl("g", { class: "clue " + line.kind });
        head.appendChild(svgEl("title"));
        head.dataset.label = lineName(line) + ": " + clueLabel(line.clue);
        var guide = svgEl("line", { class: "guide" });
        head.appendChild(guide);
        var clue = line.clue;
        var groups = clue.length ? clue : [null];
        var prefix = STRIKE_PREFIX[line.kind] + line.index;
        var keyOf = function (g) {
          return clue.length ? prefix + "." + g : null;
        };
        var index;
        if (line.kind === "row") {
          var first = centre(line.cells[0]);
          var x = first[0] - R * 1.3;
          for (index = groups.length - 1; index >= 0; index--) {
            x = number(head, groups[index], x, first[1], "end", keyOf(index))[0] - 3.5;
          }
          flag(head, x, first[1], "end");
          setLine(guide, x, first[1], first[0] - R, first[1]);
        } else {
          var falling = line.kind === "falling";
          var end = centre(falling ? line.cells[line.cells.length - 1] : line.cells[0]);
          var dx = 0.5;
          var dy = falling ? SQ3 / 2 : -SQ3 / 2;
          var t = R * 1.6;
          for (var o = 0; o < groups.length; o++) {
            index = falling ? o : groups.length - 1 - o; // read top to bottom along the line
            number(head, groups[index], end[0] + dx * t, end[1] + dy * t, "middle", keyOf(index));
            t += STEP;
          }
          flag(head, end[0] + dx * t, end[1] + dy * t, "middle");
          t -= STEP * 0.4;
          setLine(guide, end[0] + dx * R, end[1] + dy * R, end[0] + dx * t, end[1] + dy * t);
        }
        clueLayer.appendChild(head);
        heads[l] = head;
      });

      function setLine(node, x1, y1, x2, y2) {
        node.setAttribute("x1", x1.toFixed(2));
        node.setAttribute("y1", y1.toFixed(2));
        node.setAttribute("x2", x2.toFixed(2));
        node.setAttribute("y2", y2.toFixed(2));
      }

      var pad = 4;
      var vb = [bounds[0] - pad, bounds[1] - pad, bounds[2] - bounds[0] + 2 * pad, bounds[3] - bounds[1] + 2 * pad];
      svg.setAttribute("viewBox", vb.map(function (v) {
        return v.toFixed(2);
      }).join(" "));
      board.appendChild(svg);
      board.classList.add("hex-board");

      var origin = null; // the start cell's centre on the screen and the screen's px per layout unit, while a drag lasts

      function setCell(cell) {
        var scale = cell / CW;
        rootStyle.setProperty("--cell", cell + "px");
        svg.setAttribute("width", Math.round(vb[2] * scale));
        svg.setAttribute("height", Math.round(vb[3] * scale));
      }

      return {
        paint: function (i) {
          var node = cellEls[i];
          var v = grid[i];
          node.classList.toggle("x", v === EMPTY);
          node.classList.toggle("f", v > 0);
          polys[i].style.fill = v > 0 ? palette[v] : "";
          var mark = "";
          if (node.classList.contains("hint-fill")) mark = "\u25cf";
          else if (node.classList.contains("hint-empty") || v === EMPTY) mark = "\u00d7";
          marks[i].textContent = mark;
        },
        cellName: function (i) {
          var row = hex.lines[0][hex.coords[i][1] + puzzle.side - 1];
          return "row " + (hex.coords[i][1] + puzzle.side) + ", cell " + (row.indexOf(i) + 1);
        },
        hover: function (i, on) {
          if (i < 0) return;
          shape.ofCell[i].forEach(function (l) {
            heads[l].classList.toggle("hl", on);
            lines[l].cells.forEach(function (j) {
              cellEls[j].classList.toggle("hl", on);
            });
          });
        },
        beginStroke: function (s) {
          var box = cellEls[s.start].querySelector("polygon").getBoundingClientRect();
          var scale = box.width / (SQ3 * R); // a pointy-top hexagon is sqrt(3) R wide
          origin = [box.left + box.width / 2, box.top + box.height / 2, scale];
        },
        strokeTo: function (s, x, y) {
          var units = origin[2] * CW; // px per cell width
          var path = hexStrokeCells(puzzle.side, s.start, (x - origin[0]) / units, (y - origin[1]) / units);
          return { at: path[path.length - 1], path: path };
        },
        move: function (at, k) {
          var q = hex.coords[at.i][0];
          var r = hex.coords[at.i][1];
          var x = centre(at.i)[0];
          var near;
          if (k === "ArrowLeft" || k === "ArrowRight") {
            var next = hex.index(q + (k === "ArrowLeft" ? -1 : 1), r);
            if (next < 0) return at.i;
            at.goal = centre(next)[0];
            return next;
          }
          // up and down: of the two neighbours there, the one nearer the column the cursor keeps to
          if (at.goal === null) at.goal = x;
          near = (k === "ArrowUp" ? [[q, r - 1], [q + 1, r - 1]] : [[q - 1, r + 1], [q, r + 1]])
            .map(function (qr) {
              return hex.index(qr[0], qr[1]);
            })
            .filter(function (j) {
              return j >= 0;
            });
          if (!near.length) return at.i;
          near.sort(function (a, b) {
            var da = Math.abs(centre(a)[0] - at.goal);
            var db = Math.abs(centre(b)[0] - at.goal);
            if (Math.abs(da - db) > 1e-6) return da - db;
            // a tie: cross to the other side of the column, so a run of moves zigzags down it
            return (centre(a)[0] - x) * (x >= at.goal ? 1 : -1) - (centre(b)[0] - x) * (x >= at.goal ? 1 : -1);
          });
          return near[0];
        },
        setCell: setCell,
        strikeKeys: { r: "row", f: "falling", s: "rising" },
        fitCell: function (availW, availH) {
          var byW = (availW * CW) / vb[2];
          var byH = (availH * CW) / vb[3];
          // the width always fits (a phone scrolls the page down, never the board sideways)
          var cell = printing ? Math.min(byW, byH) : Math.min(byW, Math.max(byH, 24));
          return Math.max(4, Math.floor(Math.min(printing ? 40 : 56, cell)));
        },
      };
    }

    if (window.matchMedia && window.matchMedia("(pointer: coarse)").matches) document.body.classList.add("touch");
    keep = restore();
    for (var sk in struck) {
      var span = board.querySelector('[data-k="' + sk + '"]');
      if (span) span.classList.add("struck");
      else delete struck[sk];
    }
    selectTool(tool);
    setTouchMode(touchMode);
    control.mistakes.checked = options.mistakes;
    control.cross.checked = options.cross;
    if (!multi) document.body.classList.add("one-colour");
    setLetters(multi && (options.letters === null ? puzzle.letters === true : options.letters));
    // the options say what they can do for this puzzle
    document.querySelector("details.options").addEventListener("toggle", knownSolution);
    refreshAll();
    fit();
    zoomLabel();
    showTime();
    say(startMessage());
    restored = true; // from here on a change is the player's, and is saved
    // the solution for Check, worked out in slices of 8 ms once the page shows: a first Check waits only for what
    // is left (a 100x100 colour puzzle takes about half a second of line logic)
    function solveSlice() {
      if (!solving) return;
      var found = solving.run(Date.now() + 8);
      if (found === undefined) setTimeout(solveSlice, 0);
      else
        solving = {
          run: function () {
            return found;
          },
        };
    }
    setTimeout(solveSlice, 400); // after the first frames
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
    /** Where cell i is on the screen (scrolled into view first): for tests and benchmarks. */
    root.RoflPageCellBox = function (i) {
      cellEls[i].scrollIntoView({ block: "nearest", inline: "nearest" });
      if (view.box) return view.box(i);
      var r = cellEls[i].getBoundingClientRect();
      return { x: r.left, y: r.top, width: r.width, height: r.height };
    };
    if (window.performance && performance.mark) performance.mark("rofl-ready"); // benchmarks/page_speed.py
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})(typeof globalThis !== "undefined" ? globalThis : this);
