"""A claim that points back keeps what it points to: whom it is for is read from the claim with
its context ("Those dinners have to be meat-free" after "I cook for my housemate"), through the
nightly flow and recall on the real stores."""

from __future__ import annotations

from pathlib import Path

from permem.extraction.context import meaning
from permem.extraction.for_whom import ForWhom, claim_for_whom
from permem.settings import Settings
from tests.conftest import ingest, recalled_claims, user_line


def test_whom_a_claim_is_for_follows_what_it_points_back_to() -> None:
    context = "I cook for my housemate Ilka most Sundays."
    claim = "Those dinners have to be meat-free"
    assert claim_for_whom(claim) is ForWhom.ANY
    assert claim_for_whom(meaning(claim, context)) is ForWhom.OTHERS
    # A claim that does not point back is read alone, whatever its sentence says.
    assert meaning("I love chilli", "I cook for my housemate, and I love chilli") == "I love chilli"


def test_a_rule_for_someone_else_said_by_reference_is_not_applied_to_the_user_alone(
    settings: Settings, tmp_path: Path
) -> None:
    ingest(
        settings,
        tmp_path / "log.jsonl",
        [
            user_line("m1", "When I eat alone it's spicy food all the way.",
                      ts="2026-04-02T18:00:00Z"),
            user_line("m2", "I cook for my housemate Ilka most Sundays. Those dinners have to be "
                      "meat-free, she won't touch it.", turn=1, ts="2026-04-03T18:00:00Z"),
        ],
    )  # fmt: skip
    alone = recalled_claims(
        settings, "suggest a dinner just for me tonight", ts="2026-04-10T12:00:00Z"
    )
    assert not any("meat-free" in c for c in alone), alone
    together = recalled_claims(
        settings, "suggest a Sunday dinner for me and Ilka", ts="2026-04-10T12:00:00Z"
    )
    assert any("meat-free" in c for c in together), together
