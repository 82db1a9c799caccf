"""The documentation site (mkdocs.yml) covers what it should: every page of docs/ and every notebook
is in its navigation, and every optsched module is on a page of the API reference. (The site's
strict build is in .ci/run, from the README's docs-command.)"""

import pkgutil
import re
from pathlib import Path

import optsched

ROOT = Path(__file__).resolve().parents[1]
MKDOCS = (ROOT / "mkdocs.yml").read_text()


def test_every_docs_page_and_notebook_is_in_the_navigation():
    pages = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")
             if "hooks" not in p.parts and p.parent.name != "notebooks"}
    notebooks = {f"notebooks/{p.name}" for p in (ROOT / "notebooks").glob("*.ipynb")}
    listed = set(re.findall(r"^\s*- (?:[^:\n]+: )?([\w/.-]+\.(?:md|ipynb))\s*$", MKDOCS, flags=re.MULTILINE))
    assert pages | notebooks == listed, f"not in the nav: {sorted(pages | notebooks - listed)}; " \
                                        f"in the nav, missing: {sorted(listed - pages - notebooks)}"


def test_every_module_is_on_an_api_page():
    modules = {m.name for m in pkgutil.walk_packages(optsched.__path__, "optsched.")}
    documented = set()
    for page in (ROOT / "docs" / "api").glob("*.md"):
        documented.update(re.findall(r"^::: (optsched[\w.]*)$", page.read_text(), flags=re.MULTILINE))
    missing = sorted(m for m in modules if m not in documented and not m.endswith("__main__"))
    assert not missing, f"modules on no page of docs/api: {missing}"
