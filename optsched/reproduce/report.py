"""What a reproduction reports (:class:`Report`): tables, figures, assumptions, the paper's claims
tested over seeds (paired, trend and bound claims, corrected within each claim family), and the rows
of ``results.csv`` and ``summary.csv``."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..plot import figure, gains_figure, intervals, paired_gains
from ..study.report import Table
from .setting import Setting


@dataclass
class Report:
    """What a reproduction reports: its title, tables, figures, the assumptions it made, the paper's claims, the
    rows of ``results.csv`` and the tested claims of ``summary.csv``."""
    title: str
    tables: list[Table] = field(default_factory=list)
    figures: list[tuple[str, str]] = field(default_factory=list)  #: (file name, caption)
    assumptions: list[str] = field(default_factory=list)
    records: list[dict] = field(default_factory=list)  #: tidy rows written to results.csv
    paper_says: list[str] = field(default_factory=list)
    summary: list[dict] = field(default_factory=list)  #: tidy rows written to summary.csv (see summarize)
    #: claim families (or some of their points) evaluated outside the regime the paper states for them:
    #: (family, the point's values that select the rows, why) (see outside_regime)
    outside: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)
    #: per claim and point, the baselines already compared and their values (see paired_claim)
    _baselines: dict[tuple[str, str], list[tuple[Any, dict]]] = field(default_factory=dict, repr=False)

    def summarize(self, records: list[dict], *, point: list[str], method: str, value: str, sense: str,
                  reference: str | None, label: str, margin: float = 0.0) -> list[dict]:
        """Add to :attr:`summary` the per-point statistics of ``value`` over seeds for every method,
        with the paired comparison against ``reference`` (study/stats.py ``summarize``; ``margin``:
        the relative gain the claim demands). The rows form one family of tests, ``label`` (one
        paper claim over its points and baselines), corrected together; they return for the
        caller's tables."""
        from ..study.stats import summarize

        rows = [{"summary": label, "value": value, "family": label, **row}
                for row in summarize(records, point=point, method=method, value=value, sense=sense,
                                     reference=reference, margin=margin)]
        self.summary += rows
        return rows

    def claim(self, label: str, point: dict[str, Any], values: list[float], claim: str, tested: Any,
              band: Any = None, kind: str = "mean") -> None:
        """Add to :attr:`summary` a paper claim about one quantity (``values`` over seeds or instances
        at ``point``) with its test (study/stats.py ``Tested``: ``mean_within``, ``worst_case_below``,
        ``trend``). Claim rows with the same ``label`` form one family of tests. With a ``band``
        (study/stats.py ``Band``: where the paper's number puts the quantity), the row also carries
        the equivalence test of its centre (``kind``: "mean" or "median", as its direction's test)
        against the band, and :meth:`decided` gives it a magnitude verdict."""
        from ..study.stats import INTERVAL_METHOD, describe

        stats = describe(values)
        self.summary.append({"summary": label, "value": label, "family": label, **point, "method": "claim",
                             "n_seeds": stats["n"], "mean": stats["mean"], "median": stats["median"],
                             "ci_low": stats["ci_low"], "ci_high": stats["ci_high"],
                             "interval_method": INTERVAL_METHOD, "max": max(values, default=math.nan),
                             "claim": claim, **tested.fields()})
        if band is not None:
            self._band(band, values, kind)

    def _band(self, band: Any, values: Any, kind: str) -> None:
        """Give the last summary row its band and the equivalence test of ``values``' centre against
        it (study/stats.py ``within``; ``kind`` as the row's direction test)."""
        from ..study.stats import within

        p_inside, p_outside = within(values, band, kind)
        self.summary[-1].update({**band.fields(), "p_inside": p_inside, "p_outside": p_outside})

    def paired_claim(self, label: str, point: dict[str, Any], a: Mapping[Any, float], b: Mapping[Any, float],
                     sense: str, claim: str, margin: float = 0.0, band: Any = None) -> None:
        """Add the claim "A beats B" (by at least ``margin``, a fraction of B) over the seeds both have
        (``a``, ``b``: value per seed), decided by the paired test (study/stats.py ``paired``); the
        recorded values are A's gain over B in the objective's ``sense`` (B − A for "min", A − B
        for "max"), and the relative gain is the row's ``effect``. When ``point`` names a
        ``baseline`` whose values repeat those of an earlier baseline of the same claim at the same
        point, the row is merged into that one (``identical_to``): one observation, one test. With a
        ``band`` on the relative gain (study/stats.py ``Band``), the row also gets its magnitude,
        tested on the same per-seed relative gains as the direction."""
        from ..study.stats import TEST, Tested, paired

        sign = -1.0 if sense == "min" else 1.0
        gains = [sign * (a[k] - b[k]) for k in a if k in b]
        c = paired(a, b, sense, margin)
        seen = self._baselines.setdefault((label, repr(sorted((k, repr(v)) for k, v in point.items()
                                                              if k != "baseline"))), [])
        twin = next((name for name, values in seen if values == dict(b)), "") if "baseline" in point else ""
        if "baseline" in point and not twin:
            seen.append((point["baseline"], dict(b)))
        self.claim(label, point, gains, claim, Tested(c.p_value, c.leans, c.verdict, c.test))
        self.summary[-1].update({"effect": c.effect, "effect_ci_low": c.effect_ci_low,
                                 "effect_ci_high": c.effect_ci_high,
                                 "effect_method": c.effect_method,
                                 "margin": margin,
                                 "one_seed_decides": c.one_seed_decides, "identical_to": twin})
        if band is not None:
            self._band(band, c.gains, "median" if c.test == TEST["paired"] else "mean")

    def trend_claim(self, label: str, point: dict[str, Any], series: Mapping[Any, Mapping[float, float]],
                    direction: str, claim: str) -> None:
        """Add the claim "the value grows (``direction="up"``) or falls (``"down"``) with x", paired by
        seed (``series[seed][x] = value``): each seed's least-squares slope, tested against 0
        (study/stats.py ``trend``); the recorded values are the slopes, and the row's ``effect`` is
        their Hodges-Lehmann estimate with its interval, the quantity the Wilcoxon test is about
        (``mean`` and ``ci_low``..``ci_high`` keep the mean slope and its Student-t interval)."""
        from ..study.stats import EFFECT_METHOD, hodges_lehmann, slopes, trend

        tested, _ = trend(series, direction)
        per_seed = list(slopes(series).values())
        self.claim(label, point, per_seed, claim, tested)
        estimate, low, high = hodges_lehmann(per_seed)
        self.summary[-1].update({"effect": estimate, "effect_ci_low": low, "effect_ci_high": high,
                                 "effect_method": EFFECT_METHOD})

    def flat_claim(self, label: str, point: dict[str, Any], series: Mapping[Any, Mapping[float, float]],
                   claim: str) -> None:
        """Add the claim "the value shows no clear trend with x" (a paper's "little influence"),
        paired by seed (``series[seed][x] = value``): each seed's fitted change over the sweep relative
        to its level, tested for equivalence to 0 (study/stats.py ``flat``); the recorded values are
        those changes, the row's ``effect`` their Hodges-Lehmann estimate with its interval, and its
        band the equivalence margin, so that its magnitude is the same test."""
        from ..study.stats import EFFECT_METHOD, flat, hodges_lehmann

        tested, band, per_seed = flat(series)
        self.claim(label, point, per_seed, claim, tested, band=band, kind="median")
        estimate, low, high = hodges_lehmann(per_seed)
        self.summary[-1].update({"effect": estimate, "effect_ci_low": low, "effect_ci_high": high,
                                 "effect_method": EFFECT_METHOD})

    def outside_regime(self, label: str, why: str, where: dict[str, Any] | None = None) -> None:
        """Mark the claim family ``label`` (only its rows whose point has the values ``where`` gives,
        when given) as evaluated outside the regime the paper states for it (``why``: the paper's
        regime and this one's): the rows keep their statistics, and their verdict is "outside the
        paper's regime", counted apart from the tests."""
        self.outside.append((label, dict(where or {}), why))

    def decided(self) -> list[dict]:
        """:attr:`summary` with every family's p-values corrected and its verdicts decided from them
        (study/stats.py ``adjust``; idempotent); rows of a family outside the paper's regime say why
        (``outside``)."""
        from ..study.stats import adjust

        for label, where, why in self.outside:
            for row in self.summary:
                if row.get("family") == label and all(row.get(k) == v for k, v in where.items()):
                    row["outside"] = why
        return adjust(self.summary)

    def testing(self) -> str:
        """One sentence for every report: how many tests, in how many families, corrected how, and
        the interval method."""
        from ..study.stats import CORRECTION, EFFECT_METHOD, INTERVAL_METHOD, LEVEL, TEST

        rows = self.decided()
        families = {r["family"] for r in rows if r.get("tests_in_family")}
        tests = sum({r["family"]: r["tests_in_family"] for r in rows if r.get("tests_in_family")}.values())
        certain = sum(1 for r in rows if r.get("test", "").startswith("a counterexample"))
        open_ = sum(1 for r in rows if r.get("test") in (TEST["worst"], TEST["universal"]))
        merged = sum(1 for r in rows if r.get("identical_to"))
        return (f"{tests} tests in {len(families)} claim families, p-values corrected within each family by "
                f"{CORRECTION.capitalize()}'s method at the {LEVEL:.0%} familywise level (two-sided, the verdict "
                f"following the direction); intervals: {INTERVAL_METHOD} (relative gains: {EFFECT_METHOD}). "
                + (f"{certain} counterexample(s) are certain and take no test. " if certain else "")
                + (f"{open_} claim(s) about every instance found no counterexample, which no sample turns into "
                   "a proof: not resolved, without a test. " if open_ else "")
                + (f"{merged} comparison(s) repeat another method's values exactly and are merged into it "
                   "(`identical_to`). " if merged else ""))

    def conclusions(self) -> Table | None:
        """The verdicts of :attr:`summary`, computed, never typed, after the correction within each
        family: per claim family (and, for the paired comparisons of a summary, per method), how many
        tests held, did not hold, or were not resolved (study/claims.py ``tally``; methods merged into
        an identical one are not counted again)."""
        from ..study.claims import COLUMNS, band_text, magnitude_text, span_text, tally
        from ..study.stats import MIN_SEEDS

        rows = [[*counts, span_text(span), band_text(band), magnitude_text(magnitudes)]
                for *counts, span, band, magnitudes in tally(self.decided())]
        table = Table("Conclusions (computed from summary.csv: tests over seeds, corrected within each claim family)",
                      COLUMNS, rows)
        table.note = ("A test is one point (sweep value) of a claim; estimates: the least and largest relative gain, "
                      "slope, mean or worst value of the family's points; the claims point by point are the last "
                      "table. "
                      + self.testing() + f"Fewer than {MIN_SEEDS} seeds never resolve, and with {MIN_SEEDS} no "
                      "two-sided Wilcoxon test reaches 5% (its least p-value is 2/32).")
        return table if table.rows else None

    def claims(self) -> Table | None:
        """Each paper claim at each point: what was tested, the estimate with its interval (a relative
        gain, a slope, a mean), the raw and corrected p-values and the verdict."""
        from ..study.claims import estimate
        from ..study.stats import WORST_CASE_TESTS

        rows = [r for r in self.decided() if r.get("method") == "claim"]
        table = Table("The claims point by point (summary.csv rows with method=claim)",
                      ["claim", "n", "estimate", "95% interval", "p", "p corrected", "verdict", "paper's band",
                       "magnitude"], [])
        for r in rows:
            value, low, high = estimate(r)
            verdict = r["verdict"] + (" (one seed decides the sign)" if r.get("one_seed_decides") else "")
            if r.get("test") in WORST_CASE_TESTS:
                span = "none (the largest value)"
            elif math.isinf(low) and math.isinf(high):  # fewer than 6 pairs
                span = "none (< 6 pairs)"
            else:
                span = f"{_g(low)} .. {_g(high)}"
            band = f"{_g(r['band_low'])} .. {_g(r['band_high'])}" if "band_low" in r else "—"
            table.rows.append([r["claim"], r["n_seeds"], value, span, r.get("p_value"),
                               r.get("p_adjusted"), verdict, band, r.get("magnitude") or "—"])
        table.note = ("Estimate: the paired relative gain for 'A beats B (by a margin)' and the per-seed slope for a "
                      "trend, both as Hodges-Lehmann estimates (the quantity their Wilcoxon tests are about), "
                      "the mean for a bound on a mean, the largest value for a claim about every instance. p: "
                      "two-sided, the verdict following the direction; corrected within the claim's family (Holm). "
                      "A counterexample takes no test. 'One seed decides the sign': leaving some seed out flips the "
                      "sign of the mean gain. Paper's band: where the paper's number puts the estimate; magnitude: its "
                      "equivalence test (two one-sided tests, corrected within the family), for an 'up to' only at the "
                      "point of the largest estimate.")
        return table if table.rows else None

    def results(self) -> list[Table]:
        """The tables to show: the computed conclusions first, the claims point by point last."""
        first, last = self.conclusions(), self.claims()
        return ([first] if first else []) + self.tables + ([last] if last else [])

    def interval_figure(self, setting: Setting, rows: list[dict], x: str, file: str, caption: str,
                        log: bool = False, xlabel: str | None = None, xlog: bool = False) -> None:
        """Draw each method's mean with its 95% interval against ``x`` from summary ``rows`` (one
        point's rows: a sweep), save it as ``file`` and list it with ``caption``; nothing without rows.
        ``log``: a log y axis; ``xlog``: a base-2 log x axis (for sweeps that double, such as F)."""
        if not rows:
            return
        with figure(setting.out_dir / file) as (_, ax):
            intervals(rows, x, ax=ax, xlabel=xlabel, log=log, xlog=xlog,
                      ylabel=f"{rows[0]['summary']} (mean, 95% interval over {rows[0]['n_seeds']} seeds)",
                      title=" ")
        self.figures.append((file, caption))

    def gain_figure(self, setting: Setting, rows: list[dict], x: str, file: str, caption: str,
                    xlabel: str | None = None, xlog: bool = False) -> None:
        """Draw the reference's paired relative gain over each other method against ``x`` from summary
        ``rows`` (:func:`optsched.plot.gains`: the Hodges-Lehmann estimate with its 95% interval, paired
        by seed), save it as ``file`` and list it with ``caption``; nothing without paired rows. The
        paired figure shows what the verdicts test, which the means' wide intervals over seeds hide.
        Methods whose gains would sit on the zero line beside much larger ones
        (:func:`optsched.plot.close_to_zero`) get a second panel of their own, below, on their own scale."""
        if not paired_gains(rows):
            return
        if gains_figure(rows, x, setting.out_dir / file, xlabel=xlabel, xlog=xlog):
            caption += "; below, the methods close to 0 on their own scale"
        self.figures.append((file, caption))


def interval_rows(values: Mapping[tuple[Any, str], list[float]], x: str, label: str) -> list[dict]:
    """Rows :meth:`Report.interval_figure` draws, from per-seed ``values[(x value, method)]``: each
    method's mean and Student-t 95% interval at each value of ``x`` (named ``x``)."""
    from ..study.stats import describe

    rows = []
    for (value, method), per_seed in values.items():
        stats = describe(list(per_seed))
        rows.append({x: value, "method": method, "summary": label, "n_seeds": stats["n"], "mean": stats["mean"],
                     "ci_low": stats["ci_low"], "ci_high": stats["ci_high"]})
    return rows


def _g(value: Any) -> str:
    return "nan" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.4g}"
