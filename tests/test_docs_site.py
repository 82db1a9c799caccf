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


def test_every_public_function_class_and_method_has_a_docstring():
    """The API reference shows only what is documented: every public name of optsched has a
    docstring (members of private classes and functions nested in functions are not public)."""
    import ast

    def undocumented(node, where, prefix=""):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not child.name.startswith("_"):
                if ast.get_docstring(child) is None:
                    yield f"{where}: {prefix}{child.name}"
                if isinstance(child, ast.ClassDef):
                    yield from undocumented(child, where, f"{prefix}{child.name}.")

    missing = [name for path in sorted((ROOT / "optsched").rglob("*.py"))
               for name in undocumented(ast.parse(path.read_text()), path.relative_to(ROOT))]
    assert not missing, f"{len(missing)} public definitions without a docstring: {missing[:10]}"


def test_the_readme_has_no_relative_links():
    """README.md is the package's description on an index, where links relative to the repository
    break: it names docs pages as text (the site links them)."""
    readme = (ROOT / "README.md").read_text()
    relative = [target for target in re.findall(r"\]\(([^)]+)\)", readme) if "://" not in target]
    assert not relative, f"relative links in README.md: {relative}"


def test_docs_lines_stay_readable():
    """Reference pages, not diaries (issue 50): no prose line over 200 characters and no table row over
    400 anywhere in docs/ (code blocks aside); what does not fit a cell goes below its table."""
    from pathlib import Path

    docs = Path(__file__).resolve().parents[1] / "docs"
    long = []
    for page in sorted(docs.rglob("*.md")):
        inside = False
        for number, line in enumerate(page.read_text().splitlines(), 1):
            if line.startswith("```"):
                inside = not inside
            elif not inside and len(line) > (400 if line.startswith("|") else 200):
                long.append(f"{page.relative_to(docs)}:{number} ({len(line)} characters)")
    assert long == []


def test_the_benchmarks_page_keeps_what_spans_families():
    """docs/benchmarks.md holds the tables that span families, under 25 KB (issue 50); a family's own
    measurements go to the Benchmarks section of its page, and histories to CHANGELOG.md."""
    from pathlib import Path

    page = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"
    assert len(page.read_bytes()) < 25_000
