"""The grader kernel's codes (:mod:`rofl.kernels._grade`), apart
from it so that reading a result imports no numba (the kernel may run from
the extension compiled at install, :mod:`rofl.kernels._aot`)."""

# techniques (the level a round is logged with), easiest first
OVERLAP, EDGES, JOINING, LINE, PROBE = 1, 2, 3, 4, 5
N_LINE_LEVELS = 4
# statuses of _grade
SOLVED, STALLED, CONTRADICTION, LOG_FULL, BUDGET = 0, 1, 2, 3, 4
# stats slots
ST_ROUNDS, ST_PROBES, ST_LINE_DPS, ST_BAD_LINE = 0, 1, 2, 3
N_STATS = 4
# bits of _grade's ``flags``: skip probes known to fail; probe on the general
# path even where the lines' words would serve (tests compare the two)
RECALL, GENERAL_PATH = 1, 2
