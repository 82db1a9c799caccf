"""The papers optsched implements, as citations: who wrote them, where and when they appeared.

Each family's registry entry names its papers (:attr:`optsched.registry.Family.papers`), and
``optsched families --json``, the docs pages, and every ``report.md`` and ``summary.csv`` a
reproduction or study writes carry them. A DOI is given only where it was checked against the
publisher's record; the A-SRPT paper is cited by its arXiv identifier.

Examples
--------
>>> from optsched.citations import PAPERS
>>> PAPERS["bao2018"].short()
'Bao et al., IEEE INFOCOM 2018'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    """One paper: its authors as printed ("R. Zhou"), title, venue and year, with the volume, issue,
    pages, DOI and arXiv identifier where known."""

    key: str
    authors: tuple[str, ...]
    title: str
    venue: str
    year: int
    volume: str = ""
    issue: str = ""
    pages: str = ""
    doi: str = ""
    arxiv: str = ""
    kind: str = "article"  #: the BibTeX entry type: article, inproceedings or misc (a preprint)

    @property
    def url(self) -> str:
        """Where to read it: the DOI's resolver, else arXiv."""
        if self.doi:
            return f"https://doi.org/{self.doi}"
        return f"https://arxiv.org/abs/{self.arxiv}" if self.arxiv else ""

    def short(self) -> str:
        """``"Zhou et al., IEEE Transactions on Cloud Computing 2023"``: for table cells and plot captions."""
        surname = self.authors[0].split()[-1]
        who = surname if len(self.authors) == 1 else (
            f"{surname} and {self.authors[1].split()[-1]}" if len(self.authors) == 2 else f"{surname} et al.")
        return f"{who}, {self.venue} {self.year}"

    def text(self) -> str:
        """The full reference in IEEE style, with its DOI or arXiv identifier."""
        *first, last = self.authors
        names = last if not first else (f"{first[0]} and {last}" if len(first) == 1
                                        else ", ".join(first) + ", and " + last)
        parts = [f"{names}, \u201c{self.title},\u201d {self.venue}"]
        parts += [f"vol. {self.volume}"] if self.volume else []
        parts += [f"no. {self.issue}"] if self.issue else []
        parts += [f"pp. {self.pages}"] if self.pages else []
        parts.append(str(self.year))
        reference = ", ".join(parts) + "."
        if self.doi:
            reference += f" doi:{self.doi}"
        elif self.arxiv:
            reference += f" arXiv:{self.arxiv}"
        return reference

    def bibtex(self) -> str:
        """The paper as a BibTeX entry keyed by :attr:`key`."""
        venue = {"article": "journal", "inproceedings": "booktitle", "misc": "howpublished"}[self.kind]
        fields = [("author", " and ".join(self.authors)), ("title", f"{{{self.title}}}"), (venue, self.venue),
                  ("year", str(self.year)), ("volume", self.volume), ("number", self.issue),
                  ("pages", self.pages.replace("-", "--")), ("doi", self.doi),
                  ("eprint", self.arxiv), ("archiveprefix", "arXiv" if self.arxiv else "")]
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields if value)
        return f"@{self.kind}{{{self.key},\n{body}\n}}"

    def to_dict(self) -> dict:
        """This ``Paper`` as JSON-ready plain data (lists, dicts, numbers, strings)."""
        return {"key": self.key, "authors": list(self.authors), "title": self.title, "venue": self.venue,
                "year": self.year, "volume": self.volume, "issue": self.issue, "pages": self.pages,
                "doi": self.doi, "arxiv": self.arxiv, "url": self.url, "citation": self.text()}


PAPERS: dict[str, Paper] = {p.key: p for p in (
    Paper("zhou2023", ("R. Zhou", "J. Pang", "Q. Zhang", "C. Wu", "L. Jiao", "Y. Zhong", "Z. Li"),
          "Online Scheduling Algorithm for Heterogeneous Distributed Machine Learning Jobs",
          "IEEE Transactions on Cloud Computing", 2023, volume="11", issue="2", doi="10.1109/TCC.2022.3143153"),
    Paper("bao2018", ("Y. Bao", "Y. Peng", "C. Wu", "Z. Li"),
          "Online Job Scheduling in Distributed Machine Learning Clusters", "IEEE INFOCOM", 2018,
          kind="inproceedings"),
    Paper("wang2022", ("N. Wang", "R. Zhou", "L. Jiao", "R. Zhang", "B. Li", "Z. Li"),
          "Preemptive Scheduling for Distributed Machine Learning Jobs in Edge-Cloud Networks",
          "IEEE Journal on Selected Areas in Communications", 2022, volume="40", issue="8", pages="2411-2425",
          doi="10.1109/JSAC.2022.3180772"),
    Paper("luo2025", ("Z. Luo", "J. Liu", "M. Lee", "N. B. Shroff"),
          "Prediction-Assisted Online Distributed Deep Learning Workload Scheduling in GPU Clusters",
          "arXiv preprint", 2025, arxiv="2501.05563", kind="misc"),
    Paper("smith1956", ("W. E. Smith",), "Various Optimizers for Single-Stage Production",
          "Naval Research Logistics Quarterly", 1956, volume="3", issue="1-2", pages="59-66"),
    Paper("sousa1992", ("J. P. Sousa", "L. A. Wolsey"),
          "A Time Indexed Formulation of Non-Preemptive Single Machine Scheduling Problems",
          "Mathematical Programming", 1992, volume="54", pages="353-367"),
)}


def software_bibtex(version: str) -> str:
    """optsched itself as a BibTeX entry, at ``version`` (:func:`optsched.provenance.version_string`)."""
    return ("@software{optsched,\n  author = {{The optsched developers}},\n"
            "  title = {{optsched: online scheduling of distributed ML training jobs, with exact offline baselines}},\n"
            f"  version = {{{version}}},\n  year = {{2026}},\n  license = {{MIT}}\n}}")
