"""The lifecycle report as a PNG: lift against wrong-personalization rate per variant, and the
wrong personalizations of each variant by stratum (origin, sensitivity, age, scope, control).

Rendered with matplotlib's Agg backend (no display), deterministic for the same report
(no timestamps in the file: `metadata={"Software": None}`).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

__all__ = ["lift_wrong_png"]

_COLOURS = {
    "none": "#9e9e9e",
    "explicit_profile": "#1f77b4",
    "history": "#d62728",
    "profile": "#2ca02c",
    "permem": "#9467bd",
}
_STRATA = ("origin", "sensitivity", "age", "scope", "control")


def lift_wrong_png(variants: Mapping[str, Mapping[str, Any]], title: str) -> bytes:
    """A PNG of `variants` (the `variants` object of a lifecycle report)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    fig, axes = plt.subplots(2, 3, figsize=(15, 8.5))
    ax = axes[0][0]
    for n, (name, v) in enumerate(variants.items()):
        low, high = v["lift_ci"]
        lift = v["lift"]
        # Variants often coincide: each name gets its own line of text beside its point.
        ax.annotate(
            name, (v["wrong_rate"], lift), xytext=(8, 10 - 9 * n), textcoords="offset points",
            fontsize=7, color=_COLOURS.get(name, "black"),
        )  # fmt: skip
        ax.errorbar(
            v["wrong_rate"], lift, yerr=[[lift - low], [high - lift]], fmt="o", capsize=4,
            color=_COLOURS.get(name, "black"), label=f"{name} (severe {v['severe']})",
        )  # fmt: skip
    ax.axhline(0, color="#cccccc", linewidth=0.8)
    ax.set_xlabel("wrong-personalization rate (share of queries)")
    ax.set_ylabel("lift over none (95% CI)")
    ax.set_title("lift vs wrong personalization")
    ax.set_xlim(-0.05, 1.05)
    ax.legend(fontsize=7, loc="best")
    for ax, stratum in zip([a for row in axes for a in row][1:], _STRATA, strict=True):
        values = sorted({value for v in variants.values() for value in v["strata"][stratum]})
        width = 0.8 / max(1, len(variants))
        for n, (name, v) in enumerate(variants.items()):
            counts = [v["strata"][stratum].get(value, {}).get("wrong", 0) for value in values]
            ax.barh(
                [i + n * width for i in range(len(values))], counts, height=width,
                color=_COLOURS.get(name, "black"), label=name,
            )  # fmt: skip
        ax.set_yticks([i + 0.4 - width / 2 for i in range(len(values))], values, fontsize=7)
        ax.set_title(f"wrong personalizations by {stratum}")
        ax.set_xlabel("forbidden items supplied")
    fig.suptitle(title)
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=80, metadata={"Software": None})
    plt.close(fig)
    return out.getvalue()
