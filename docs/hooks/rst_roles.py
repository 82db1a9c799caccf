"""A griffe extension for the API reference: optsched's docstrings cross-reference in reST roles
(``:class:`~optsched.solvers.Result```), which Markdown does not read; each role becomes a code span
of the name it shows (the last dotted part after ``~``, else the whole target)."""

from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):`(~?)([^`]+)`")


def _shown(match: re.Match) -> str:
    tilde, target = match.groups()
    return f"`{target.rsplit('.', 1)[-1] if tilde else target}`"


class RstRoles(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = ROLE.sub(_shown, obj.docstring.value)
