"""A griffe extension for the API reference: optsched's docstrings are written for ``help()`` and
Sphinx-style readers, in reST, which Markdown does not read. Each cross-reference role
(``:class:`~optsched.solvers.Result```) becomes a code span of the name it shows (the last dotted
part after ``~``, else the whole target), and each simple table (columns ruled by ``====``) a
Markdown table. docs/hooks/check_site.py then checks the built site for any reST left over."""

from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):`(~?)([^`]+)`")
RULE = re.compile(r"^ *=+( +=+)+ *$")


def _shown(match: re.Match) -> str:
    tilde, target = match.groups()
    return f"`{target.rsplit('.', 1)[-1] if tilde else target}`"


def _columns(rule: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"=+", rule)]


def _cells(line: str, spans: list[tuple[int, int]]) -> list[str]:
    """A row's cells: each column from its start to the next column's start (the last to the end)."""
    starts = [start for start, _ in spans] + [len(line) + 1]
    return [line[a:b].strip() for a, b in zip(starts, starts[1:])]


def simple_tables(text: str) -> str:
    """Every reST simple table of ``text`` (a rule, rows, a rule; a second rule under the header) as
    a Markdown table; the rest unchanged."""
    lines, out, k = text.splitlines(), [], 0
    while k < len(lines):
        if not RULE.match(lines[k]):
            out.append(lines[k])
            k += 1
            continue
        spans = _columns(lines[k])
        end = next((j for j in range(k + 1, len(lines)) if RULE.match(lines[j])), None)
        if end is None:
            out.append(lines[k])
            k += 1
            continue
        closing = next((j for j in range(end + 1, len(lines)) if RULE.match(lines[j])), None)
        rows = lines[k + 1:end] if closing is None else lines[k + 1:end] + lines[end + 1:closing]
        header = rows[0] if closing is not None else None
        data = rows[1:] if closing is not None else rows
        width = len(spans)
        table = ["| " + " | ".join(_cells(header, spans)) + " |", "|" + "---|" * width] if header else \
            ["| " + " | ".join([""] * width) + " |", "|" + "---|" * width]
        table += ["| " + " | ".join(_cells(row, spans)) + " |" for row in data if row.strip()]
        out += table
        k = (closing if closing is not None else end) + 1
    return "\n".join(out)


class RstRoles(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = simple_tables(ROLE.sub(_shown, obj.docstring.value))
