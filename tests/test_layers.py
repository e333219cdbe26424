"""The package's layers only point down, no modules import each other in a
circle, and no package reaches into another's private names.

Every module under ``rofl/`` is parsed with :mod:`ast`: its imports at
module level, inside functions and under ``TYPE_CHECKING`` all count, and
so do the modules a module names in a string when it calls
``importlib.import_module`` (the lazy tables of ``rofl/__init__.py``,
``rofl/cli/__init__.py`` and ``rofl/formats/__init__.py``), with no
exception: even the notebook display hook ``LinePuzzle._repr_svg_`` draws
through a slot the package face fills (``rofl.linepuzzle.SVG_DISPLAY``).

A package is a folder of ``rofl/`` (``rofl.solver``, ``rofl.kernels``, ...);
the top-level modules (``rofl.maker``, ``rofl._io``) are the package
``rofl``, whose private modules every module of rofl may use.  A name is
private to its package when a module below the package or the name itself
starts with ``_``: ``rofl.kernels._line`` and ``rofl.solver.index_lines._board``
are, ``rofl.kernels.structs.Clues`` is not.  The compiled core
(``rofl.kernels``) is entered only by its door.
"""

from __future__ import annotations

import ast
from pathlib import Path

import rofl

PACKAGE = Path(rofl.__file__).parent
REPO = PACKAGE.parent

#: Lowest first: a module may import its own layer and the layers above it
#: in this list, never one below.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    # the compiled core: every kernel, its structures, compiling and loading them
    ("kernels", ("rofl.kernels",)),
    (
        "errors",
        (
            "rofl.errors",
            "rofl._io",
            "rofl._version",
            "rofl._cache",
            "rofl._lazy",
            "rofl._checks",
            "rofl._xml",
            "rofl._words",
        ),
    ),
    # the model: the board protocol, colours, clue validation and derivation, the shapes' puzzles
    (
        "puzzle",
        (
            "rofl.board",
            "rofl.palette",
            "rofl.validate",
            "rofl.derive",
            "rofl.packed",
            "rofl.linepuzzle",
            "rofl.puzzle",
            "rofl.hexagon",
        ),
    ),
    ("solver", ("rofl.solver",)),
    ("picture, refine", ("rofl.picture", "rofl.refine")),
    ("formats", ("rofl.formats",)),
    # what turns files into pictures and pictures into puzzles, on top of the formats
    ("pipelines", ("rofl.decode", "rofl.encode", "rofl.maker", "rofl.hints", "rofl.secret", "rofl.RoflImagePlugin")),
    ("render", ("rofl.render",)),
    ("batch", ("rofl.batch",)),
    # the package's face (``import rofl``: lazy names, the Pillow plugin), the command line
    # and, beside it, the browser studio (which takes its options from ``rofl make``)
    ("cli, studio", ("rofl", "rofl.cli", "rofl.__main__", "rofl.studio")),
]

#: Private imports across packages that are still there (importer, imported
#: module, name): none may be added, and one that goes must go from here too.
KNOWN_PRIVATE: set[tuple[str, str, str | None]] = set()


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int:
    best, index = "", -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > len(best):
                best, index = prefix, i
    assert index >= 0, f"{module} belongs to no layer: add it to LAYERS"
    return index


def _target(name: str) -> str | None:
    """The rofl module ``name`` is, or is in (``rofl.formats.rofl.parse`` -> ``rofl.formats.rofl``)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def package_of(module: str) -> str:
    """``rofl.solver`` for ``rofl.solver.index_lines``; ``rofl`` for a top-level module."""
    parts = module.split(".")
    if len(parts) > 1 and (PACKAGE / parts[1]).is_dir():
        return f"rofl.{parts[1]}"
    return "rofl"


def private_imports(sources: dict[str, str] | None = None) -> list[tuple[str, str, str | None, int]]:
    """``(importer, imported module, name or None, line)`` of every import of
    a name private to another package (see the module's docstring), in every
    module of rofl or in ``sources`` (module name: its text)."""
    if sources is None:
        sources = {module: path.read_text(encoding="utf-8") for module, path in MODULES.items()}
    found = []
    for module, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            pairs: list[tuple[str, str | None]] = []
            if isinstance(node, ast.Import):
                pairs = [(alias.name, None) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    pairs.append((full, None) if full in MODULES else (node.module, alias.name))
            for name, attr in pairs:
                target = _target(name)
                if target is None:
                    continue
                home = package_of(target)
                if module == home or module.startswith(home + "."):
                    continue  # its own package, or a package inside the one it imports from
                below = target[len(home) :].split(".")
                private = any(p.startswith("_") and p != "__init__" for p in below if p)
                if private or (attr is not None and attr.startswith("_") and not attr.startswith("__")):
                    found.append((module, target, attr, node.lineno))
    return found


def imports(module: str) -> list[tuple[str, str, int]]:
    """``(imported module, enclosing function or "", line)`` of every rofl import in ``module``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: list[tuple[str, str, int]] = []
    dynamic = "import_module" in ast.unparse(tree)

    def visit(node: ast.AST, function: str) -> None:
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{module}: relative import"
            base = node.module or ""
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        elif dynamic and isinstance(node, ast.Constant) and isinstance(node.value, str):
            names = [node.value] if node.value in MODULES else []
        for name in names:
            target = _target(name)
            if target is not None and target != module:
                found.append((target, function, node.lineno))  # type: ignore[attr-defined]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, "")
    return found


GRAPH = {module: imports(module) for module in MODULES}


def test_every_module_has_a_layer():
    assert len(MODULES) > 40
    for module in MODULES:
        layer_of(module)


def test_imports_only_point_down():
    upward = []
    for module, targets in GRAPH.items():
        for target, _, line in targets:
            if layer_of(target) > layer_of(module):
                here, there = LAYERS[layer_of(module)][0], LAYERS[layer_of(target)][0]
                place = f"{MODULES[module].relative_to(REPO)}:{line}"
                upward.append(f"{place}: {module} ({here}) imports {target} ({there})")
    assert not upward, "\n".join(upward)


def test_the_kernels_are_entered_by_their_door_only():
    """No module outside ``rofl.kernels`` imports its private modules or names."""
    inside = [
        f"{MODULES[m].relative_to(REPO)}:{line}: {m} imports {t}{'.' + a if a else ''}"
        for m, t, a, line in private_imports()
        if package_of(t) == "rofl.kernels"
    ]
    assert not inside, "\n".join(inside)


def test_no_new_private_imports_across_packages():
    found = {(m, t, a) for m, t, a, _ in private_imports()}
    assert found <= KNOWN_PRIVATE, sorted(found - KNOWN_PRIVATE)
    assert KNOWN_PRIVATE <= found, f"gone, remove from KNOWN_PRIVATE: {sorted(KNOWN_PRIVATE - found)}"


def test_the_model_is_built_on_public_names():
    """The model's modules (the puzzle layer: the board protocol, the two
    shapes and what they share) import no private name of one another: the
    hexagon builds on ``rofl.linepuzzle`` and ``rofl.validate`` as the
    rectangle does, and no other module reaches into them either."""
    model = dict(LAYERS)["puzzle"]
    found = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module in model and node.module != module:
                private = [a.name for a in node.names if a.name.startswith("_")]
                found += [
                    f"{path.relative_to(REPO)}:{node.lineno}: {module} imports {node.module}.{n}" for n in private
                ]
    assert not found, "\n".join(found)


def test_the_private_import_check_sees_one():
    """The check itself: a private name of another package is found."""
    assert package_of("rofl.kernels._line") == "rofl.kernels" and package_of("rofl.maker") == "rofl"
    source = "from rofl.cli.make import _StageBars\nfrom rofl.formats._limits import MAX_CELLS\nimport rofl.solver\n"
    found = {(m, t, a) for m, t, a, _ in private_imports({"rofl.studio.work": source})}
    assert found == {
        ("rofl.studio.work", "rofl.cli.make", "_StageBars"),
        ("rofl.studio.work", "rofl.formats._limits", "MAX_CELLS"),
    }


def test_no_circle_of_imports():
    edges = {module: {t for t, _, _ in targets} for module, targets in GRAPH.items()}
    circles = [sorted(c) for c in _strongly_connected(edges) if len(c) > 1]
    assert not circles, circles


def _strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iteratively (the graph is small, but recursion limits are not)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(component)
    return components
