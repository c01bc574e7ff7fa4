"""Generated hostile inputs for the readers of disk files, the path patterns and every entry point (issue 22).

Hypothesis builds, and shrinks on failure:

- malformed prebuilt folders (a valid `safekernels build` output, then one mutation: a value of the wrong type, a
  deleted key, a value nested thousands deep, truncated or garbage bytes, a huge string, a non-finite number, or
  the manifest / cubin replaced by a FIFO, a `/dev/zero` link, a folder, a dangling link or a sparse 600 MiB
  file); the oracle: `load_prebuilt` returns kernels or raises `PrebuiltError`, within seconds;
- malformed codegen cache entries and autotune records (the same mutations, re-checksummed or not); the oracle:
  a miss (None) or a usable entry, never an exception, never a hang, and a well-formed record is always read;
- `.gitignore` pattern lists and path names (negations, `**`, classes, pathological stars, unicode, control
  characters); the oracles: a naive backtracking translation of the same rules on small inputs, `pathspec`
  (an independent gitignore implementation, on the subset where both follow git), a time bound on large ones,
  and `discover` over a generated tree against the reference walk;
- module trees with look-alikes of the project's packages and of the standard library planted in the working
  folder, for every entry point (`python -m` and console scripts of check and build, `-V`, `explain`); the
  oracle: no planted file ran.

CI runs a bounded number of examples (about 25 s in all); `SK_HOSTILE_EXAMPLES=N` runs N per generator (N/40
trees per entry point: each is a subprocess), the long mode whose counts are in docs/reliability.md;
`SK_HOSTILE_REPORT=path.json` writes the outcome counts.
"""

from __future__ import annotations

import atexit
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pathspec
import pytest
from hostile_corpus import KERNEL
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ownership_check.discovery import discover
from ownership_check.path_patterns import PathMatcher, PatternError, parse_line, segment_regex
from safekernels.autotune.store import TuningStore
from safekernels.prebuilt import PrebuiltError, load_prebuilt

LONG = "SK_HOSTILE_EXAMPLES" in os.environ
_TMP = Path(tempfile.mkdtemp(prefix="sk_generated_"))
atexit.register(shutil.rmtree, _TMP, ignore_errors=True)
COUNTS: dict[str, Counter[str]] = {}
CLEAN_KERNEL = KERNEL.split("\n\ndef main")[0] + "\n"


def examples(ci: int) -> settings:
    return settings(
        max_examples=int(os.environ.get("SK_HOSTILE_EXAMPLES", ci)),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


def count(generator: str, outcome: str) -> None:
    COUNTS.setdefault(generator, Counter())[outcome] += 1


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    lines = [f"{name}: {sum(c.values())} cases: {dict(sorted(c.items()))}" for name, c in sorted(COUNTS.items())]
    print("\n" + "\n".join(lines), file=sys.__stderr__)
    report = os.environ.get("SK_HOSTILE_REPORT")
    if report:
        Path(report).write_text(json.dumps({k: dict(v) for k, v in COUNTS.items()}, indent=1, sort_keys=True))


def _fresh(prefix: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=prefix, dir=_TMP))


def within(seconds: float, action: Callable[[], Any]) -> tuple[str, Any]:
    """("ok", value) or ("raised", exception), run in a thread; fails the test if it has not ended in time."""
    box: list[tuple[str, Any]] = []

    def run() -> None:
        try:
            box.append(("ok", action()))
        except BaseException as exc:
            box.append(("raised", exc))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"did not finish in {seconds} s"
    return box[0]


# -- values, mutations and file kinds ---------------------------------------------------------------------------
JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["../x", "a/b", "", "class", "f32", "mystery", "\x1b[31m", "a" * 300])
)
JSON_VALUES = st.recursive(
    JSON_LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)
FILE_KINDS = ("fifo", "dev-zero", "directory", "dangling", "sparse-huge", "empty")


def json_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path (keys and indexes) into a JSON value, the value itself included."""
    out = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            out.extend(json_paths(child, (*prefix, key)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            out.extend(json_paths(child, (*prefix, index)))
    return out


def replace_at(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    out = copy.deepcopy(value)
    target = out
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return out


def delete_at(value: Any, path: tuple[Any, ...]) -> Any:
    if not path:
        return None
    out = copy.deepcopy(value)
    target = out
    for step in path[:-1]:
        target = target[step]
    del target[path[-1]]
    return out


def nested(depth: int, leaf: Any) -> Any:
    for _ in range(depth):
        leaf = [leaf]
    return leaf


def mutated_text(base: Any, draw: Any, max_depth: int) -> tuple[str, bytes]:
    """(what was done, the bytes of a mutated JSON document)."""
    kind = draw(st.sampled_from(["replace", "delete", "deep", "truncate", "garbage", "huge-string", "same"]))
    paths = json_paths(base)
    path = draw(st.sampled_from(paths))
    if kind == "replace":
        value = replace_at(base, path, draw(JSON_VALUES))
    elif kind == "delete":
        value = delete_at(base, path)
    elif kind == "deep":
        value = replace_at(base, path, nested(draw(st.integers(1, max_depth)), draw(JSON_LEAVES)))
    elif kind == "huge-string":
        value = replace_at(base, path, "x" * draw(st.integers(1, 1 << 20)))
    else:
        value = base
    try:
        text = json.dumps(value).encode()
    except (ValueError, RecursionError):  # json.dumps cannot nest that deep itself: write the brackets
        depth = draw(st.integers(1, max_depth))
        text = b"[" * depth + b"]" * depth
    if kind == "truncate":
        text = text[: draw(st.integers(0, len(text)))]
    elif kind == "garbage":
        text = draw(st.binary(max_size=64))
    return kind, text


def make_file_kind(path: Path, kind: str) -> None:
    if path.exists() or path.is_symlink():
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "directory":
        path.mkdir()
    elif kind == "dangling":
        path.symlink_to(path.parent / "missing-target")
    elif kind == "sparse-huge":
        with open(path, "wb") as handle:
            handle.truncate(600 * 1024 * 1024)
    else:
        path.write_bytes(b"")


# -- prebuilt folders ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def prebuilt_folder() -> Path:
    from safekernels.codegen import build_cli

    root = _fresh("build_")
    (root / "k.py").write_text(CLEAN_KERNEL)
    status = build_cli.main([str(root / "k.py"), "--emit", "cubin", "-o", str(root / "out"), "--no-check", "-q"])
    assert status == 0
    return root / "out"


@st.composite
def prebuilt_case(draw: Any, base: dict[str, Any]) -> tuple[str, str, bytes]:
    if draw(st.integers(0, 5)) == 0:
        return "file-kind", draw(st.sampled_from(["manifest.json", "vecadd.cubin"])) + ":" + draw(
            st.sampled_from(FILE_KINDS)
        ), b""
    kind, text = mutated_text(base, draw, 3000 if not LONG else 120_000)
    return kind, "manifest.json", text


def test_generated_prebuilt_folders(prebuilt_folder: Path) -> None:
    base = json.loads((prebuilt_folder / "manifest.json").read_text())

    @examples(60)
    @given(prebuilt_case(base))
    def run(case: tuple[str, str, bytes]) -> None:
        kind, target, text = case
        folder = _fresh("prebuilt_")
        for path in prebuilt_folder.iterdir():
            shutil.copy2(path, folder / path.name)
        if kind == "file-kind":
            name, file_kind = target.split(":")
            make_file_kind(folder / name, file_kind)
            kind = f"file-kind:{file_kind}"
        else:
            (folder / "manifest.json").write_bytes(text)
        status, value = within(30, lambda: load_prebuilt(folder))
        if status == "ok":
            for name in value:
                assert value[name].name == name
            count("prebuilt folders", "loaded")
        else:
            assert isinstance(value, PrebuiltError) and str(value), repr(value)
            count("prebuilt folders", "PrebuiltError")
        count("prebuilt mutations", kind)
        shutil.rmtree(folder, ignore_errors=True)

    run()


# -- codegen cache entries and autotune records ----------------------------------------------------------------
@pytest.fixture
def cache_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    root = _fresh("cache_")
    monkeypatch.setenv("SAFEKERNELS_CACHE_DIR", str(root))
    monkeypatch.delenv("SAFEKERNELS_NO_CACHE", raising=False)
    (root / "autotune").mkdir()
    return root


@st.composite
def cache_case(draw: Any) -> tuple[str, bytes | str]:
    from safekernels.codegen import cache

    header: dict[str, Any] = {
        "format": cache.FORMAT_VERSION,
        "key": "ab" * 32,
        "lengths": [3, 2, 1],
        "meta": {"plan": "[]", "block": [256, 1, 1]},
    }
    payload = b"ir!px\x00"
    if draw(st.integers(0, 6)) == 0:
        return "file-kind", draw(st.sampled_from(FILE_KINDS))
    kind, text = mutated_text(header, draw, 3000 if not LONG else 120_000)
    try:
        mutated = json.loads(text)
    except (ValueError, RecursionError):  # the generator's own parse: deep text stays as it is
        mutated = None
    if isinstance(mutated, dict) and draw(st.booleans()):  # re-checksummed: only the schema can refuse it
        kind += "+checksum"
        mutated.pop("sha256", None)
        try:
            mutated["sha256"] = cache._checksum(dict(mutated), payload)
            text = json.dumps(mutated).encode()
        except (ValueError, TypeError, RecursionError):
            pass
    elif isinstance(mutated, dict):
        mutated["sha256"] = "0" * 64
        text = json.dumps(mutated).encode()
    return kind, cache.MAGIC + text + b"\n" + payload


def test_generated_codegen_cache_entries(cache_root: Path) -> None:
    from safekernels.codegen import cache

    key = "ab" * 32

    @examples(60)
    @given(cache_case())
    def run(case: tuple[str, bytes | str]) -> None:
        kind, data = case
        path = cache_root / f"{key}.skc"
        if kind == "file-kind":
            assert isinstance(data, str)
            make_file_kind(path, data)
            kind = f"file-kind:{data}"
        else:
            assert isinstance(data, bytes)
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            elif path.exists() or path.is_symlink():
                path.unlink()
            path.write_bytes(data)
        status, value = within(30, lambda: cache.load(key))
        assert status == "ok", f"cache.load raised {value!r}"
        if value is None:
            count("codegen cache entries", "miss")
        else:
            assert isinstance(value, cache.CacheEntry)
            assert (value.llvm_ir, value.ptx, value.cubin) == ("ir!", "px", b"\0")
            count("codegen cache entries", "hit")
        count("codegen cache mutations", kind)

    run()


@st.composite
def record_case(draw: Any) -> tuple[str, bytes | str, int | None]:
    n_configs = 4
    choice = draw(st.integers(0, 9))
    if choice == 0:
        return "file-kind", draw(st.sampled_from(FILE_KINDS)), None
    if choice == 1:  # a well-formed record: must be read back
        best = draw(st.integers(0, n_configs - 1))
        extra = draw(st.dictionaries(st.sampled_from(["timings", "config", "configs"]), JSON_VALUES, max_size=2))
        return "valid", json.dumps({**extra, "best": best}, allow_nan=True).encode(), best
    kind, text = mutated_text({"best": 1, "timings": [1.0, 2.0], "configs": ["a", "b"]}, draw, 3000)
    return kind, text, None


def test_generated_autotune_records(cache_root: Path) -> None:
    key = "cd" * 32

    @examples(60)
    @given(record_case())
    def run(case: tuple[str, bytes | str, int | None]) -> None:
        kind, data, expected = case
        path = cache_root / "autotune" / f"{key}.json"
        if kind == "file-kind":
            assert isinstance(data, str)
            make_file_kind(path, data)
            kind = f"file-kind:{data}"
        else:
            assert isinstance(data, bytes)
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            elif path.exists() or path.is_symlink():
                path.unlink()
            path.write_bytes(data)
        status, value = within(30, lambda: TuningStore().load(key, 4))
        assert status == "ok", f"TuningStore.load raised {value!r}"
        if expected is not None:
            assert value == expected
        assert value is None or (type(value) is int and 0 <= value < 4)
        count("autotune records", "miss" if value is None else "hit")
        count("autotune mutations", kind)

    run()


# -- path patterns -----------------------------------------------------------------------------------------
SEGMENT_ATOMS = st.sampled_from(
    ["a", "b", "x", ".py", "*", "?", "[ab]", "[!a]", "[a-c]", "é", "\x1b", "\t", " ", "\x0c", "\u2028", "\\*"]
)
NAME_CHARS = st.sampled_from([*"abx.-_ é\x1b\t\x0c*", "py", "\u2028"])


def naive_segment(glob: str) -> str:
    """The textbook translation (backtracking regex): the reference on small inputs."""
    out, i = [], 0
    while i < len(glob):
        c = glob[i]
        if c == "\\" and i + 1 < len(glob):
            out.append(re.escape(glob[i + 1]))
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[" and (end := glob.find("]", i + 2 if glob[i + 1 : i + 2] in ("!", "^", "]") else i + 1)) != -1:
            body = glob[i + 1 : end]
            negate = body[:1] in ("!", "^")
            body = (body[1:] if negate else body).replace("\\", "\\\\").replace("[", "\\[")
            out.append(f"[{'^/' if negate else ''}{body}]" if body else "(?!)")
            i = end + 1
            continue
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


class NaiveMatcher:
    """gitignore rules by one full-path backtracking regex per pattern, evaluated last to first."""

    def __init__(self, lines: list[str]) -> None:
        self.rules: list[tuple[bool, bool, re.Pattern[str]]] = []
        for raw in lines:
            text = raw
            negated = text.startswith("!")
            text = text[1:] if negated else (text[1:] if text[:2] in ("\\!", "\\#") else text)
            while text.startswith("./"):
                text = "/" + text[2:]
            dir_only = text.endswith("/")
            text = text.rstrip("/")
            segments = [s for s in text.strip("/").split("/") if s]
            if not text or not segments:
                continue
            if "/" not in text:
                segments.insert(0, "**")
            regex = ""
            for i, seg in enumerate(segments):
                last = i == len(segments) - 1
                if seg == "**":
                    regex += "[^/]+(?:/[^/]+)*" if last and i > 0 else "(?:[^/]+/)*"
                    if last and i == 0:
                        regex += "[^/]+"
                else:
                    regex += naive_segment(seg) + ("" if last else "/")
            self.rules.append((negated, dir_only, re.compile(f"^{regex}$", re.DOTALL)))

    def excluded(self, path: str, is_dir: bool) -> bool:
        return self.decision(path, is_dir) is True

    def decision(self, path: str, is_dir: bool) -> bool | None:
        for negated, dir_only, regex in reversed(self.rules):
            if dir_only and not is_dir:
                continue
            if regex.match(path):
                return not negated
        return None


def naive_walk_excluded(matchers: dict[str, NaiveMatcher], path: str) -> bool:
    """git's rule over nested `.gitignore` files: for the path and each of its folders, top-down, the deepest
    file with a matching line decides; an excluded folder hides everything below it."""
    parts = path.split("/")
    for i in range(len(parts)):
        prefix = parts[: i + 1]
        for depth in range(len(prefix) - 1, -1, -1):
            matcher = matchers.get("/".join(prefix[:depth]))
            decision = None if matcher is None else matcher.decision("/".join(prefix[depth:]), i < len(parts) - 1)
            if decision is not None:
                if decision:
                    return True
                break
    return False


@st.composite
def small_patterns(draw: Any, negations: bool = True, dir_only: bool = True, classes: bool = True) -> list[str]:
    atoms = SEGMENT_ATOMS if classes else st.sampled_from(["a", "b", "x", ".py", "*", "?", "[ab]", "é"])
    out = []
    for _ in range(draw(st.integers(1, 4))):
        segments = [
            "**" if draw(st.integers(0, 4)) == 0 else "".join(draw(st.lists(atoms, min_size=1, max_size=3)))
            for _ in range(draw(st.integers(1, 3)))
        ]
        pattern = ("/" if draw(st.booleans()) else "") + "/".join(segments)
        if dir_only and draw(st.integers(0, 3)) == 0:
            pattern += "/"
        if negations and draw(st.integers(0, 3)) == 0:
            pattern = "!" + pattern
        if pattern.strip() and not pattern.lstrip("!").startswith("#"):
            out.append(pattern)
    return out or ["*"]


small_paths = st.lists(
    st.lists(NAME_CHARS, min_size=1, max_size=4).map("".join).filter(lambda s: s not in (".", "..")),
    min_size=1,
    max_size=4,
).map("/".join)


_INSTANCES = {"*": None, "?": ["a", "é", "*"], "[ab]": ["a", "b"], "[!a]": ["b", "x"], "[a-c]": ["b", "c"],
              "\\*": ["*"]}


@st.composite
def glob_and_name(draw: Any) -> tuple[str, str]:
    """A segment glob and a name: half the time one built to match it (then perhaps edited by one character)."""
    atoms = draw(st.lists(SEGMENT_ATOMS, min_size=1, max_size=8))
    if draw(st.booleans()):
        return "".join(atoms), draw(st.lists(NAME_CHARS, max_size=10).map("".join))
    name = ""
    for atom in atoms:
        options = _INSTANCES.get(atom, [atom])
        name += draw(st.lists(NAME_CHARS, max_size=3).map("".join)) if options is None else draw(
            st.sampled_from(options))
    if name and draw(st.booleans()):
        at = draw(st.integers(0, len(name) - 1))
        name = name[:at] + draw(NAME_CHARS) + name[at + 1 :]
    return "".join(atoms), name


@examples(300)
@given(glob_and_name())
def test_segment_regex_agrees_with_the_backtracking_translation(case: tuple[str, str]) -> None:
    glob, name = case
    expected = re.fullmatch(naive_segment(glob), name, re.DOTALL) is not None
    assert (segment_regex(glob).match(name) is not None) == expected
    count("segment globs", "match" if expected else "no match")


@examples(300)
@given(small_patterns(), small_paths)
def test_path_matcher_agrees_with_the_naive_rules(lines: list[str], path: str) -> None:
    mine, naive = PathMatcher(lines), NaiveMatcher(lines)
    parts = path.split("/")
    for i in range(len(parts)):  # every prefix, as the directory walk asks it
        prefix, is_dir = "/".join(parts[: i + 1]), i < len(parts) - 1
        assert mine.excluded(prefix, is_dir) == naive.excluded(prefix, is_dir), (lines, prefix, is_dir)
    count("pattern lists vs naive rules", "negations" if any(p.startswith("!") for p in lines) else "plain")


def _walk_excluded(matcher: PathMatcher, path: str) -> bool:
    parts = path.split("/")
    return any(matcher.excluded("/".join(parts[: i + 1]), i < len(parts) - 1) for i in range(len(parts)))


@examples(200)
@given(small_patterns(negations=False, dir_only=False, classes=False), small_paths)
def test_path_matcher_agrees_with_pathspec(lines: list[str], path: str) -> None:
    """pathspec follows git except for `[!...]` (it can match `/`) and the rule that nothing below an excluded
    folder can be re-included; on the rest it is an independent second implementation."""
    expected = pathspec.GitIgnoreSpec.from_lines(lines).match_file(path)
    assert _walk_excluded(PathMatcher(lines), path) == expected, (lines, path)
    count("pattern lists vs pathspec", "excluded" if expected else "kept")


@st.composite
def pathological(draw: Any) -> tuple[list[str], list[str]]:
    stars = draw(st.integers(2, 40))
    letter = draw(st.sampled_from(["a", "é", "\x01"]))
    line = (f"*{letter}" * stars) + "*b"
    shapes = [line, f"**/{line}", f"{line}/**", f"/x/**/{line}/**/{line}", f"!{line}"]
    lines = draw(st.lists(st.sampled_from(shapes), min_size=1, max_size=5))
    name = letter * draw(st.integers(50, 300))
    return lines, [name, f"x/{name}/{name}", f"{name}/{name}b"]


@examples(40)
@given(pathological())
def test_pathological_patterns_finish_fast(case: tuple[list[str], list[str]]) -> None:
    lines, paths = case
    start = time.perf_counter()
    matcher = PathMatcher(lines)
    for path in paths:
        matcher.excluded(path, False)
        matcher.excluded(path, True)
    elapsed = time.perf_counter() - start
    assert elapsed < 2, f"{elapsed:.2f} s for {lines!r}"
    count("pathological pattern lists", "under 2 s")


@examples(150)
@given(st.text(max_size=200), st.text(max_size=60))
def test_any_gitignore_text_is_usable_or_refused(text: str, path: str) -> None:
    lines = [p for p in (parse_line(line) for line in text.split("\n")) if p is not None]
    try:
        matcher = PathMatcher(lines)
    except PatternError:
        count("arbitrary gitignore text", "refused")
        return
    assert isinstance(matcher.excluded(path, False), bool) and isinstance(matcher.excluded(path, True), bool)
    count("arbitrary gitignore text", "usable")


@examples(25)
@given(small_patterns(), st.lists(small_paths, min_size=1, max_size=8, unique=True),
       st.one_of(st.none(), small_patterns()))
def test_discover_over_a_generated_tree(lines: list[str], paths: list[str], nested: list[str] | None) -> None:
    root = _fresh("tree_")
    files: set[str] = set()
    for path in paths:
        target = root / f"{path}.py"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("x = 1\n")
            files.add(f"{path}.py")
        except OSError:  # a generated name used both as a folder and as a file
            continue
    gitignores = {"": lines}
    folders = sorted({path.rsplit("/", 1)[0] for path in files if "/" in path})
    if nested is not None and folders:  # a second .gitignore, in the first folder of the tree
        gitignores[folders[0]] = nested
    for folder, folder_lines in gitignores.items():
        (root / folder / ".gitignore").write_text("".join(f"{line}\n" for line in folder_lines), encoding="utf-8")
    errors: list[str] = []
    found = {os.path.relpath(full, root).replace(os.sep, "/") for full, _ in discover([str(root)], (), str(root),
                                                                                      errors)}
    naive = {folder: NaiveMatcher([p for p in (parse_line(line) for line in folder_lines) if p is not None])
             for folder, folder_lines in gitignores.items()}
    expected = {path for path in files if os.path.isfile(root / path) and not naive_walk_excluded(naive, path)}
    assert errors == []
    assert found == expected
    count("discover over generated trees", f"{len(found)} of {len(files)} files kept" if len(files) < 3
          else "3+ files")
    count("discover over generated trees", "with a nested .gitignore" if len(gitignores) > 1 else "root only")
    shutil.rmtree(root, ignore_errors=True)


# -- look-alike module trees, every entry point ---------------------------------------------------------------
BIN = Path(sys.executable).parent
ENTRY_POINTS: dict[str, list[str]] = {
    "python -m safekernels check": [sys.executable, "-m", "safekernels", "check", "prog.py", "--no-cache"],
    "python -m ownership_check": [sys.executable, "-m", "ownership_check", "prog.py", "--no-cache"],
    "python -m safekernels build": [sys.executable, "-m", "safekernels", "build", "prog.py", "--emit", "llvm",
                                    "-o", "out", "-q"],
    "ownership-check": [str(BIN / "ownership-check"), "prog.py", "--no-cache"],
    "safekernels check": [str(BIN / "safekernels"), "check", "prog.py", "--no-cache"],
    "safekernels build": [str(BIN / "safekernels"), "build", "prog.py", "--emit", "llvm", "-o", "out", "-q"],
    "python -m safekernels -V": [sys.executable, "-m", "safekernels", "-V"],
    "python -m safekernels explain": [sys.executable, "-m", "safekernels", "explain", "E0502"],
}
LOOKALIKES = [
    "safekernels", "ownership_check", "codegen", "mypy_plugin", "cuda", "numpy", "llvmlite", "libcst", "mypy",
    "json", "typing", "dataclasses", "argparse", "ast", "tokenize", "inspect", "importlib", "hashlib",
    "tempfile", "subprocess", "traceback", "pathlib", "enum", "functools", "warnings", "re", "textwrap",
]


@st.composite
def planted_tree(draw: Any) -> dict[str, str]:
    names = draw(st.lists(st.sampled_from(LOOKALIKES), min_size=1, max_size=12, unique=True))
    return {name: draw(st.sampled_from(["module", "package", "namespace"])) for name in names}


KINDS = ("module", "package", "namespace")


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_generated_lookalike_trees_never_run(entry: str) -> None:
    """CI: one tree per entry point with every look-alike planted (kinds rotated per entry point); the long
    mode: generated subsets and kinds, SK_HOSTILE_EXAMPLES trees per entry point."""
    shift = sorted(ENTRY_POINTS).index(entry)

    def run(planted: dict[str, str]) -> None:
        root = _fresh("plant_")
        marker = (
            "import os as _os\n"
            "open(_os.path.join({root!r}, 'EXECUTED-{name}'), 'w').close()\n"
            "raise SystemExit('the look-alike {name} was executed')\n"
        )
        for name, kind in planted.items():
            text = marker.format(root=str(root), name=name)
            if kind == "module":
                (root / f"{name}.py").write_text(text)
            else:
                (root / name).mkdir()
                (root / name / ("__init__.py" if kind == "package" else "bindings.py")).write_text(text)
        (root / "prog.py").write_text(CLEAN_KERNEL)
        proc = subprocess.run(ENTRY_POINTS[entry], cwd=root, capture_output=True, text=True, timeout=180)
        executed = sorted(p.name for p in root.iterdir() if p.name.startswith("EXECUTED-"))
        assert executed == [], f"{entry} ran {executed}: {proc.stderr[-2000:]}"
        assert proc.returncode == 0, f"{entry}: {proc.stdout[-2000:]}{proc.stderr[-2000:]}"
        count("look-alike trees", entry)
        count("look-alike files planted", f"{len(planted)} names" if len(planted) < 4 else "4+ names")
        shutil.rmtree(root, ignore_errors=True)

    if not LONG:
        run({name: KINDS[(i + shift) % 3] for i, name in enumerate(LOOKALIKES)})
        return
    trees = max(1, int(os.environ["SK_HOSTILE_EXAMPLES"]) // 40)  # a subprocess each: 1/40 of the other counts
    settings(examples(0), max_examples=trees)(given(planted_tree())(run))()
