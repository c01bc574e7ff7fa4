"""gitignore-style path patterns, matched in time linear in the path: `exclude` globs and `.gitignore` files.

A pattern file comes from the tree being checked, so it is hostile input: `*a*a*a*...*b` turned into the regex
`[^/]*a[^/]*a...b` makes Python's backtracking engine take exponential time on a long file name that almost
matches (22 stars and a 120-character name did not finish in a minute), and `**` inside such a pattern
multiplies that again.  Here no pattern is ever one backtracking regex:

    a path       is split into segments; `**` segments are matched by a set-of-positions walk over the
                 segments (at most patterns x depth steps), never by a regex
    a segment    `c0*c1*...*ck` (each `ci` a run of literals, `?` and `[...]` classes, one character each)
                 becomes `^c0 (?>[^/]*?c1) ... (?>[^/]*?c(k-1)) [^/]*ck$`: every middle chunk is placed at its
                 earliest position and never reconsidered (an atomic group), which is exact for globs whose
                 chunks have fixed width, and linear: each scan starts where the previous one ended

Semantics follow gitignore(5): blank lines and `#` comments are skipped, `\\#`/`\\!` escape, trailing spaces are
dropped unless escaped, `!` re-includes (the last matching pattern decides), a trailing `/` matches directories
only, a slash at the start or in the middle anchors the pattern at the root (otherwise it matches at any depth),
`**/` matches any number of leading folders, a trailing `/**` everything inside (not the folder itself).  A
folder that is excluded is not descended into, so (as in git) nothing below it can be re-included.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

#: The most patterns one matcher takes (a real `.gitignore` has tens; a larger list is refused, not truncated:
#: dropping a `!` line would silently stop checking the files it re-includes).
MAX_PATTERNS = 100_000
#: The most patterns with wildcards (each compiles a regex, ~1 ms for a long one; a literal costs a set entry).
MAX_WILDCARD_PATTERNS = 2_000
#: Name patterns per alternation regex (Python compiles one huge alternation in superlinear time).
_GROUP_SIZE = 64


class PatternError(ValueError):
    """A pattern list that cannot be used (too many patterns); the message says why."""


@dataclass(frozen=True)
class _Pattern:
    index: int
    negated: bool
    dir_only: bool
    segments: tuple[str, ...]  # "**" or a compiled segment glob's source
    anchored: bool


def _split_chunks(glob: str) -> tuple[list[str], int]:
    """Translate one path segment's glob into regex chunks between its `*`s (and count the stars)."""
    chunks: list[str] = [""]
    i = 0
    while i < len(glob):
        c = glob[i]
        if c == "\\" and i + 1 < len(glob):
            chunks[-1] += re.escape(glob[i + 1])
            i += 2
            continue
        if c == "*":
            while i < len(glob) and glob[i] == "*":
                i += 1
            chunks.append("")
            continue
        if c == "?":
            chunks[-1] += "[^/]"
        elif c == "[":
            end = glob.find("]", i + 2 if glob[i + 1 : i + 2] in ("!", "^", "]") else i + 1)
            if end == -1:
                chunks[-1] += re.escape(c)
            else:
                body = glob[i + 1 : end]
                negate = body[:1] in ("!", "^")
                if negate:
                    body = body[1:]
                body = body.replace("\\", "\\\\").replace("[", "\\[")
                chunks[-1] += f"[{'^/' if negate else ''}{body}]" if body else "(?!)"
                i = end + 1
                continue
        else:
            chunks[-1] += re.escape(c)
        i += 1
    return chunks, len(chunks) - 1


_GLOB_CHARS = re.compile(r"[*?\[\\]")


def is_literal(glob: str) -> bool:
    """Whether a segment glob has no wildcard or escape: it matches exactly itself."""
    return _GLOB_CHARS.search(glob) is None


def segment_body(glob: str) -> str:
    """The regex source matching one path segment against `glob` in linear time (module docstring)."""
    chunks, stars = _split_chunks(glob)
    if stars == 0:
        body = chunks[0]
    elif stars == 1:
        body = f"{chunks[0]}[^/]*{chunks[1]}"
    else:
        middle = "".join(f"(?>[^/]*?{chunk})" for chunk in chunks[1:-1] if chunk)
        body = f"{chunks[0]}{middle}[^/]*{chunks[-1]}"
    try:
        re.compile(body)
    except re.error:  # an odd character class: match the glob literally instead
        return re.escape(glob)
    return body


def segment_regex(glob: str) -> re.Pattern[str]:
    return re.compile(f"^(?:{segment_body(glob)})$", re.DOTALL)


@dataclass(frozen=True)
class _NameGroup:
    """Consecutive `name`-style patterns (one segment, any depth) of one polarity, as one alternation."""

    negated: bool
    dir_only: bool
    literals: frozenset[str]
    regex: re.Pattern[str] | None


def parse_line(line: str) -> str | None:
    """The pattern a `.gitignore` line holds (None for blanks and comments), escapes and spaces resolved."""
    if line.endswith("\n"):
        line = line[:-1]
    stripped = line.rstrip(" \t")
    if stripped.endswith("\\") and len(stripped) < len(line):
        stripped += line[len(stripped)]  # `foo\ ` keeps its escaped space
    if not stripped or stripped.startswith("#"):
        return None
    return stripped


class PathMatcher:
    """An ordered pattern list compiled once; `excluded(relpath, is_dir)` applies the last matching pattern."""

    def __init__(self, patterns: Sequence[str]) -> None:
        self._segment_cache: dict[str, re.Pattern[str]] = {}
        self.wildcards = 0
        self.patterns: list[_Pattern] = []
        last_of: dict[str, int] = {raw: i for i, raw in enumerate(patterns)}  # an earlier duplicate never decides
        if len(last_of) > MAX_PATTERNS:
            raise PatternError(f"{len(last_of):,} distinct patterns, more than the {MAX_PATTERNS:,} supported")
        for index, raw in enumerate(patterns):
            if last_of[raw] != index:
                continue
            pattern = self._compile(index, raw)
            if pattern is not None:
                self.patterns.append(pattern)
        self.has_negations = any(p.negated for p in self.patterns)
        self.items = self._group(self.patterns)
        # Index the path patterns by a literal first or last segment, so a path is tried only against the
        # patterns that could match it (a 1 MiB list of literal paths costs a dict lookup per path).
        self.always: list[int] = []
        self.by_first: dict[str, list[int]] = {}
        self.by_last: dict[str, list[int]] = {}
        for position, item in enumerate(self.items):
            if isinstance(item, _NameGroup):
                self.always.append(position)
            elif item.segments[0] != "**" and is_literal(item.segments[0]):
                self.by_first.setdefault(item.segments[0], []).append(position)
            elif item.segments[-1] != "**" and is_literal(item.segments[-1]):
                self.by_last.setdefault(item.segments[-1], []).append(position)
            else:
                self.always.append(position)
                if not self._is_name(item):
                    self._count_wildcard()

    def _count_wildcard(self) -> None:
        self.wildcards += 1
        if self.wildcards > MAX_WILDCARD_PATTERNS:
            raise PatternError(
                f"more than {MAX_WILDCARD_PATTERNS:,} patterns with wildcards (each costs a compiled matcher)"
            )

    @staticmethod
    def _is_name(pattern: _Pattern) -> bool:
        return len(pattern.segments) == 2 and pattern.segments[0] == "**" and pattern.segments[1] != "**"

    def _group(self, patterns: list[_Pattern]) -> list[_Pattern | _NameGroup]:
        """Runs of name patterns with the same polarity become one regex (matched in C, not a Python loop)."""
        items: list[_Pattern | _NameGroup] = []
        run: list[_Pattern] = []

        def flush() -> None:
            if len(run) == 1:
                items.append(run[0])
            elif run:
                names = [p.segments[1] for p in run]
                literals = frozenset(n for n in names if is_literal(n))
                bodies = "|".join(f"(?:{segment_body(n)})" for n in names if not is_literal(n))
                regex = re.compile(f"^(?:{bodies})$", re.DOTALL) if bodies else None
                items.append(_NameGroup(run[0].negated, run[0].dir_only, literals, regex))
            run.clear()

        for pattern in patterns:
            if self._is_name(pattern):
                if run and ((run[0].negated, run[0].dir_only) != (pattern.negated, pattern.dir_only)
                            or len(run) >= _GROUP_SIZE):
                    flush()
                run.append(pattern)
            else:
                flush()
                items.append(pattern)
        flush()
        return items

    def _compile(self, index: int, raw: str) -> _Pattern | None:
        text = raw
        negated = text.startswith("!")
        if negated:
            text = text[1:]
        elif text.startswith("\\!") or text.startswith("\\#"):
            text = text[1:]
        while text.startswith("./"):  # `./.venv` means `/.venv`: anchored at the root
            text = "/" + text[2:]
        dir_only = text.endswith("/")
        text = text.rstrip("/")
        if not text:
            return None
        anchored = "/" in text
        parts = tuple(part for part in text.strip("/").split("/") if part)
        if not parts:
            return None
        normalized: list[str] = []
        for part in parts:
            if part == "**":
                if normalized and normalized[-1] == "**":
                    continue
            elif not is_literal(part):
                self._count_wildcard()
            normalized.append(part)
        if not anchored:
            normalized.insert(0, "**")
        return _Pattern(index, negated, dir_only, tuple(normalized), anchored)

    def _segment_matches(self, segment: str, part: str) -> bool:
        if is_literal(segment):
            return segment == part
        regex = self._segment_cache.get(segment)
        if regex is None:
            regex = self._segment_cache[segment] = segment_regex(segment)
        return regex.match(part) is not None

    def _matches(self, pattern: _Pattern, parts: list[str]) -> bool:
        segments = pattern.segments
        if len(segments) == 2 and segments[0] == "**" and segments[1] != "**":  # `name`: the last part only
            return self._segment_matches(segments[1], parts[-1])
        reach = {0}
        last = len(pattern.segments) - 1
        for i, segment in enumerate(pattern.segments):
            if segment == "**":
                start = min(reach) + (1 if i == last and i > 0 else 0)  # a trailing `/**`: something inside
                reach = set(range(start, len(parts) + 1))
            else:
                reach = {j + 1 for j in reach if j < len(parts) and self._segment_matches(segment, parts[j])}
            if not reach:
                return False
        return len(parts) in reach

    def excluded(self, relpath: str, is_dir: bool) -> bool:
        return self.decision(relpath, is_dir) is True

    def decision(self, relpath: str, is_dir: bool) -> bool | None:
        """True (excluded) or False (re-included) by the last matching pattern; None when none matches."""
        parts = [part for part in relpath.split("/") if part and part != "."]
        if not parts:
            return None
        positions = self.always + self.by_first.get(parts[0], []) + self.by_last.get(parts[-1], [])
        for position in sorted(positions, reverse=True):
            item = self.items[position]
            if item.dir_only and not is_dir:
                continue
            if isinstance(item, _NameGroup):
                if parts[-1] in item.literals or (item.regex is not None and item.regex.match(parts[-1])):
                    return not item.negated
            elif self._matches(item, parts):
                return not item.negated
        return None


def parse_gitignore(text: str) -> list[str]:
    """The patterns of a `.gitignore` file's text, in order (negations kept)."""
    out = []
    for line in text.split("\n"):  # git splits on LF only: a form feed or U+2028 is part of a pattern
        pattern = parse_line(line[:-1] if line.endswith("\r") else line)
        if pattern is not None:
            out.append(pattern)
    return out
