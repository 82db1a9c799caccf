"""The placement family's picture of a schedule (``optsched.plot.gantt``, ``Family.chart``): a
placement is not a timeline, so each server's GPUs are drawn as a row, coloured by the pipeline
stage placed on them, with its free and unavailable GPUs."""

from __future__ import annotations

from typing import Any

from .instance import Instance
from .schedule import Schedule


def draw(instance: Instance, placement: Schedule, ax: Any, title: str | None) -> Any:
    """Draw ``placement`` on ``ax`` (a new one-column figure when None) and return the axes."""
    from ..plot import figure, pyplot

    if ax is None:
        with figure(height=min(9.0, 0.9 + 0.22 * len(instance.available))) as (_, ax):
            pass
    colours = pyplot().get_cmap("tab10")
    for m, (free, counts) in enumerate(zip(instance.available, placement.counts)):
        left = 0
        for s, count in enumerate(counts):
            if count:
                ax.barh(m, count, left=left, color=colours(s % 10), edgecolor="black", linewidth=0.3,
                        label=f"stage {s}")
                left += count
        if free > left:
            ax.barh(m, free - left, left=left, color="white", edgecolor="0.6", linewidth=0.3, label="free GPU")
        if instance.gpus > free:
            ax.barh(m, instance.gpus - free, left=free, color="0.85", edgecolor="0.6", linewidth=0.3,
                    label="unavailable GPU")
    handles, labels = ax.get_legend_handles_labels()
    unique = dict(sorted(zip(labels, handles), key=lambda item: (not item[0].startswith("stage"), item[0])))
    ax.legend(unique.values(), unique.keys(), loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_yticks(range(len(instance.available)), [f"server {m}" for m in range(len(instance.available))])
    ax.invert_yaxis()
    ax.set_xlabel("GPUs")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.grid(axis="y", visible=False)
    ax.set_title(title or f"placement: {instance.job.model or 'job'} over {len(instance.available)} servers")
    return ax
