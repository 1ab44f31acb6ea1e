"""`permem serve`: the HTTP API over recall and the controls (docs/serve.md).

The actor and tenant come from the credential (`interfaces.http.auth`), never from a body;
each route calls the core function the command line calls, so both end in the same state.
"""

from interfaces.http.app import API_VERSION, create_app

__all__ = ["API_VERSION", "create_app"]
