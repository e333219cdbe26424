"""Every ``rofl`` command the README and docs/ show runs, and prints what they show.

The convention, for README.md and docs/*.md:

* Only fenced blocks opened with ```` ```sh ```` are run; a synopsis or any
  other text that is not meant to run goes in a ```` ```text ```` block.
* Each block runs in a fresh temporary folder holding a copy of ``samples/``,
  so an example may use the shipped samples and the files that an earlier
  command of the same block writes, and nothing else.
* A block either has prompts (``$ `` starts every command line; the other
  lines are output) or not (every line is a command line).  The ``rofl ...``
  parts of a command line run; the rest (``pip install``, ``python -m
  pytest``, ``python benchmarks/...``) is skipped.  A command line is split
  as a POSIX shell would split it (quotes; ``#`` starts a comment, so write
  ``'book.pdf#2'`` in quotes); a word with ``*`` expands like a shell glob;
  ``&&`` chains commands, ``< FILE`` feeds FILE to standard input and
  ``echo TEXT | rofl ...`` feeds TEXT and a newline.
* A command must exit with status 0, unless its comment says ``exit N`` or
  ``exit status N``.
* Under a ``$ rofl`` command, the lines up to the next ``$`` line are what it
  prints (stdout and stderr together).  Each must be a line of the actual
  output, in order, except that ``...`` stands for any lines left out, ``…``
  inside a line for any text, and times (``0.49 s``, ``12 ms``) for any time.
  Without ``...`` first, the first line shown is the first line printed.
  Blocks without prompts show no output, and none is checked.

The README's blocks run in the default test run; docs/*.md's and
samples/README.md's (run in ``samples/``) are marked ``slow``.  Commands
run in-process through click's ``CliRunner``.  The ```` ```python ````
blocks run too, each in the same kind of folder.  The inline ``rofl ...``
spans of the prose are not run, but their options are checked against the
commands'.
"""

from __future__ import annotations

import glob
import re
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

import click
import pytest

from rofl.cli import main
from tests.clirun import run
from tests.places import REPO

DOCS = sorted((REPO / "docs").glob("*.md"))
TIME = re.compile(r"\d+(?:\.\d+)? (?:ms|s)\b")
EXIT = re.compile(r"\bexit (?:status )?(\d+)\b")


@dataclass
class Command:
    """One ``rofl`` invocation of a block and what the docs say it does."""

    line: int
    args: list[str]
    status: int = 0
    stdin: str | None = None
    stdin_file: str | None = None
    shown: list[str] = field(default_factory=list)
    checked: bool = False  # written with "$ ": the lines under it are its output


@dataclass
class Block:
    path: Path
    line: int
    commands: list[Command]

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def _commands(text: str, line: int) -> list[Command]:
    """The ``rofl`` commands of one shell line (``a && b``, ``echo x | rofl ...``, ``rofl ... < f``)."""
    comment = text.split(" #", 1)[1] if " #" in text else ""
    wanted = EXIT.search(comment)
    words = shlex.split(text, comments=True)
    parts: list[list[str]] = [[]]
    for word in words:
        if word == "&&":
            parts.append([])
        else:
            parts[-1].append(word)
    out = []
    for part in parts:
        stdin = None
        if "|" in part:
            left, part = part[: part.index("|")], part[part.index("|") + 1 :]
            assert left and left[0] == "echo", f"line {line}: only `echo TEXT | rofl ...` pipes are run"
            stdin = " ".join(left[1:]) + "\n"
        if not part or part[0] != "rofl":
            continue
        command = Command(line, part[1:], status=int(wanted.group(1)) if wanted else 0, stdin=stdin)
        if "<" in command.args:
            at = command.args.index("<")
            command.stdin_file = command.args[at + 1]
            del command.args[at : at + 2]
        out.append(command)
    return out


def blocks(path: Path) -> list[Block]:
    """The ```sh blocks of a Markdown file that hold at least one ``rofl`` command."""
    found = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```sh":
            i += 1
            continue
        block = Block(path, i + 1, [])
        end = lines.index("```", i + 1)
        # output keeps its indentation (a hexagon's offset rows); commands do not need it
        body = [(n + 1, text.rstrip()) for n, text in enumerate(lines[i + 1 : end], start=i + 1)]
        prompts = any(text.lstrip().startswith("$ ") for _, text in body)
        current: Command | None = None
        for n, raw in body:
            text = raw.strip()
            if prompts and not text.startswith("$ "):
                if current is not None:
                    current.shown.append(raw)
                continue
            commands = _commands(text.removeprefix("$ "), n)
            for command in commands:
                command.checked = prompts
            block.commands += commands
            current = commands[-1] if prompts and commands else None
        i = end
        if block.commands:
            found.append(block)
        i += 1
    return found


def _pattern(shown: str) -> re.Pattern[str]:
    """A shown output line as a regex: ``…`` is any text, a time is any time."""
    parts = []
    for piece in re.split(r"(…|" + TIME.pattern + ")", shown):
        if piece == "…":
            parts.append(".*")
        elif TIME.fullmatch(piece):
            parts.append(r"\d+(?:\.\d+)? (?:ms|s)")
        else:
            parts.append(re.escape(piece))
    return re.compile("".join(parts))


def check_output(shown: list[str], output: str) -> None:
    """Every shown line matches an output line, in order; ``...`` skips lines.

    Without ``...`` before it, a shown line must be the very next output line
    (the first shown line the first output line)."""
    actual = [line.rstrip() for line in output.splitlines()]
    at, skipping = 0, False
    for text in shown:
        if text == "...":
            skipping = True
            continue
        pattern = _pattern(text)
        while at < len(actual) and not pattern.fullmatch(actual[at]):
            assert skipping, f"expected {text!r}, got {actual[at]!r} in:\n{output}"
            at += 1
        assert at < len(actual), f"{text!r} not in the output:\n{output}"
        at, skipping = at + 1, False


def run_block(block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(REPO / "samples", tmp_path / "samples")
    # samples/README.md's commands run in samples/, the others at the top of the repository
    monkeypatch.chdir(tmp_path / "samples" if block.path.parent == REPO / "samples" else tmp_path)
    for command in block.commands:
        args = []
        for word in command.args:
            matches = sorted(glob.glob(word)) if "*" in word else []
            args += matches or [word]
        stdin = command.stdin
        if command.stdin_file is not None:
            stdin = Path(command.stdin_file).read_text(encoding="utf-8")
        where = f"{block.path.name}:{command.line}: rofl {shlex.join(args)}"
        result = run(*args, input=stdin)  # an uncaught exception fails here, with its traceback
        assert result.exit_code == command.status, f"{where}: exit status {result.exit_code}\n{result.output}"
        if not asks_for_help(args):  # `-h 30` for a height prints the help and exits 0 (issue 41)
            assert not prints_help(result.output), f"{where}: printed the help instead of doing its work"
        if command.checked:
            try:
                check_output(command.shown, result.output)
            except AssertionError as e:
                pytest.fail(f"{where}: {e}")


def asks_for_help(args: list[str]) -> bool:
    """Whether ``rofl ARGS`` is a request for help: command names, then ``-h`` or ``--help`` last."""
    return bool(args) and args[-1] in HELP and all(not word.startswith("-") for word in args[:-1])


def prints_help(output: str) -> bool:
    """Whether ``output`` holds a command's help page (click's, as ``-h`` prints it)."""
    return bool(re.search(r"^Usage: .*^Options:.*Show this message and exit\.", output, flags=re.S | re.M))


HELP = ("-h", "--help")


def _command(words: list[str]) -> tuple[click.Command, list[str]]:
    """The ``rofl`` (sub)command ``words`` name, and the words after its name."""
    command: click.Command = main
    while isinstance(command, click.Group) and words and words[0] in command.list_commands(None):
        command, words = command.get_command(None, words[0]), words[1:]
    return command, words


def inline_commands(path: Path) -> list[tuple[str, str]]:
    """(where, text) of every inline ``rofl ...`` code span of a Markdown file (not in a fenced block),
    but for those the prose says do not exist (``there is no `rofl hide --shape hex```)."""
    text = path.read_text(encoding="utf-8")
    found = []
    for m in re.finditer(r"```.*?```|`(rofl [^`]+)`", text, flags=re.S):
        if m.group(1) and not text[: m.start()].endswith("no "):
            found.append((f"{path.relative_to(REPO)}:{text.count(chr(10), 0, m.start()) + 1}", m.group(1)))
    return found


INLINE = [c for p in (REPO / "README.md", *DOCS, REPO / "samples" / "README.md") for c in inline_commands(p)]


@pytest.mark.parametrize(("where", "text"), INLINE, ids=[w for w, _ in INLINE])
def test_inline_commands_name_options_their_command_has(where, text):
    """The ``rofl ...`` spans in the prose are not run (many are partial), but every option they give
    is one of the command's, and ``-h``/``--help`` only as a request for help."""
    try:
        words = shlex.split(text.replace("…", " "), comments=True)[1:]
    except ValueError:
        words = text.split()[1:]
    command, rest = _command(words)
    options = {name for param in command.params for name in (*param.opts, *param.secondary_opts)}
    options |= set(HELP)
    for word in rest:
        name = word.split("=", 1)[0]
        if not re.fullmatch(r"--?[A-Za-z][\w-]*", name):
            continue  # a value, a placeholder, a number
        assert name in options, f"{where}: `{text}`: rofl {command.name} has no option {name}"
        if name in HELP:
            assert asks_for_help(words), f"{where}: `{text}`: {name} prints the help (the height is -H)"


def test_a_help_page_is_told_from_a_command_that_did_its_work():
    assert prints_help(run("make", "-w", "30", "-h", "30").output)
    assert not prints_help(run("--version").output)
    assert asks_for_help(["make", "--help"]) and asks_for_help(["-h"]) and asks_for_help(["secret", "-h"])
    assert not asks_for_help(["make", "x.png", "-o", "x.rofl", "-h", "30"])


README_BLOCKS = blocks(REPO / "README.md")
DOCS_BLOCKS = [block for path in [*DOCS, REPO / "samples" / "README.md"] for block in blocks(path)]


def test_the_readme_has_command_blocks_and_stays_short():
    assert len(README_BLOCKS) >= 3
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 260


@pytest.mark.parametrize("block", README_BLOCKS, ids=lambda b: b.id)
def test_readme_commands(block, tmp_path, monkeypatch):
    run_block(block, tmp_path, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("block", DOCS_BLOCKS, ids=lambda b: b.id)
def test_docs_commands(block, tmp_path, monkeypatch):
    run_block(block, tmp_path, monkeypatch)


def python_blocks(path: Path) -> list[tuple[str, str]]:
    """(id, code) of every ```python block of a Markdown file."""
    text = path.read_text(encoding="utf-8")
    return [
        (f"{path.relative_to(REPO)}:{text.count(chr(10), 0, m.start()) + 1}", m.group(1))
        for m in re.finditer(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)
    ]


def run_python(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:

    shutil.copytree(REPO / "samples", tmp_path / "samples")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "<example>", "exec"), {})


@pytest.mark.parametrize("code", [pytest.param(c, id=w) for w, c in python_blocks(REPO / "README.md")])
def test_readme_python(code, tmp_path, monkeypatch):
    run_python(code, tmp_path, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("code", [pytest.param(c, id=w) for p in DOCS for w, c in python_blocks(p)])
def test_docs_python(code, tmp_path, monkeypatch):
    run_python(code, tmp_path, monkeypatch)


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    kept = "".join(ch for ch in heading.strip().lower() if ch.isalnum() or ch in " -_")
    return kept.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", text, flags=re.M)}


@pytest.mark.parametrize("path", [REPO / "README.md", *DOCS, REPO / "spec" / "ROFL.md"], ids=lambda p: p.name)
def test_links_between_the_docs_resolve(path):
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # http:, mailto:
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.exists(), f"{path.name}: {target}: no such file"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked), f"{path.name}: {target}: no such heading"


# -- the checker itself ---------------------------------------------------------------------------------------------


def test_commands_are_split_as_a_shell_would():
    [only] = _commands("pip install . && rofl make x.jpg -o 'a b.rofl'  # exit 3", 1)
    assert only.args == ["make", "x.jpg", "-o", "a b.rofl"] and only.status == 3  # `pip install .` is skipped
    [piped] = _commands("echo correct horse | rofl hide --cipher", 1)
    assert piped.args == ["hide", "--cipher"] and piped.stdin == "correct horse\n"
    [fed] = _commands("rofl reveal < cipher.txt   # prints the text", 1)
    assert fed.args == ["reveal"] and fed.stdin_file == "cipher.txt" and fed.status == 0
    assert _commands("python -m pytest", 1) == []


def test_shown_output_matches_lines_in_order_with_times_and_gaps():
    output = "a: 1\nb: 2\ntime: 0.52 s (x 1.5 s)\nwrote x.rofl\n"
    check_output(["a: 1", "b: 2", "time: 9.1 s (x 12 ms)", "wrote x.rofl"], output)
    check_output(["...", "wrote x.rofl"], output)
    check_output(["a: 1", "...", "wrote …"], output)
    for wrong in (["b: 2"], ["a: 1", "wrote x.rofl"], ["a: 2"], ["...", "a: 1", "a: 1"]):
        with pytest.raises(AssertionError):
            check_output(wrong, output)


def test_benchmark_sections_are_marked_once_each():
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from _docs import replace_section, sections
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    text = (REPO / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    names = sections(text)
    assert len(names) == len(set(names)) >= 8
    for name in names:
        changed = replace_section(text, name, "SENTINEL")
        assert f"<!-- begin {name} -->\nSENTINEL\n<!-- end {name} -->" in changed
        assert sections(changed) == names and replace_section(changed, name, "x") == replace_section(text, name, "x")
    with pytest.raises(KeyError):
        replace_section(text, "no-such-section", "x")
    scripts = {p.stem for p in (REPO / "benchmarks").glob("*.py") if not p.stem.startswith("_")}
    for script in scripts:
        assert "--write-docs" in (REPO / "benchmarks" / f"{script}.py").read_text(encoding="utf-8"), script
