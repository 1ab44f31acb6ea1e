"""The attribute ruler by lookup (permem.nlp_attributes): every token gets exactly the
attributes the model's own ruler gives it."""

from __future__ import annotations

from pathlib import Path

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc

from permem import nlp_attributes
from permem.nlp import MODEL, load_pipeline
from tests.conftest import corpus_texts

# The ruler's rules of two tokens and its exceptions by word, in several cases and spellings.
_EXCEPTIONS = [
    "I ain't going, and she ain't either. Ain't nobody got time.",
    "we're gonna need a bigger boat, gotta go, let's see, c'mon, y'all ready?",
    "There is a cat. There's two dogs, there are birds and there were fish.",
    "Y'ALL GONNA LOVE IT. LET'S GO. C'MON!",
    "\n\n  spaces   and\ttabs  \n",
    "'s 're n't na ta",
]


def _attributes(doc: Doc) -> list[tuple[object, ...]]:
    return [
        (t.text, t.tag_, t.pos_, str(t.morph), t.lemma_, t.dep_, t.head.i, t.norm_) for t in doc
    ]


@pytest.fixture(scope="module")
def bare() -> Language:
    return spacy.load(MODEL)


def _texts(folder: Path) -> list[str]:
    texts = corpus_texts(folder, keys=("text", "query")) | set(_EXCEPTIONS)
    texts |= {t.lower() for t in list(texts)[:400]} | {t.upper() for t in list(texts)[:400]}
    return sorted(texts)


def test_every_token_gets_what_the_ruler_gives_it(bare: Language, tmp_path: Path) -> None:
    texts = _texts(tmp_path)
    assert len(texts) > 2_000
    fast = load_pipeline()
    assert fast.get_pipe("attribute_ruler").set_annotations.__self__.__class__.__name__ == (
        "_Lookup"
    )
    for text, want, got in zip(texts, bare.pipe(texts), fast.pipe(texts), strict=True):
        assert _attributes(got) == _attributes(want), text


def test_the_two_token_rules_apply(bare: Language) -> None:
    """The ruler's own exceptions set lemmas a tag map cannot ("ai" -> "be", "na" -> "to")."""
    doc = load_pipeline()("I ain't gonna do it")
    lemmas = {t.text: t.lemma_ for t in doc}
    assert lemmas["ai"] == "be"
    assert lemmas["na"] == "to"
    assert _attributes(doc) == _attributes(bare("I ain't gonna do it"))


def test_a_rule_the_lookup_does_not_read_leaves_the_ruler_as_it_is() -> None:
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add([[{"LOWER": "very", "OP": "+"}]], {"POS": "ADV"})
    assert nlp_attributes.install(nlp) is False
    assert [t.pos_ for t in nlp("very very good")] == ["ADV", "ADV", ""]


def test_a_pipeline_without_a_ruler_is_left_alone() -> None:
    assert nlp_attributes.install(spacy.blank("en")) is False
