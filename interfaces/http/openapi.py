"""The OpenAPI document of the service, as committed in docs/openapi.json.

Regenerate: `python -m interfaces.http.openapi > docs/openapi.json`.
"""

from __future__ import annotations

import json
import sys

from interfaces.http.app import create_app
from permem.settings import Settings

__all__ = ["document"]


def document() -> str:
    """The app's OpenAPI document as stable, sorted JSON text (no store is opened)."""
    spec = create_app(Settings()).openapi()
    return json.dumps(spec, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    sys.stdout.write(document())
