"""A MkDocs hook: after the build, fail it if any reST survived into the API reference's pages (a
role such as ``:class:`...``` or a simple table's ``====`` rule, which Markdown prints as text);
docs/hooks/rst_roles.py converts them, and this keeps it honest on every build."""

from __future__ import annotations

import re
from pathlib import Path

LEFT = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):`|={8,}")


def on_post_build(config, **kwargs) -> None:
    found = []
    for page in sorted(Path(config["site_dir"], "api").rglob("*.html")):
        text = re.sub(r"<(pre|code)[^>]*>.*?</\1>", "", page.read_text(), flags=re.S)  # code may hold anything
        found += [f"{page.relative_to(config['site_dir'])}: {m.group(0)[:20]}" for m in LEFT.finditer(text)]
    if found:
        raise RuntimeError(f"reST left in the API reference ({len(found)}): {'; '.join(found[:5])}")
