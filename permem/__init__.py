"""permem: personalization memory that is scoped, purpose-bound, attributable and erasable."""

from permem.errors import (
    BadInput,
    CheckFailed,
    ConfigurationError,
    IllegalTransition,
    NotFound,
    PermemError,
)
from permem.records import (
    Confirmation,
    GateDecision,
    Kind,
    Message,
    Origin,
    Role,
    Sensitivity,
    SourceRef,
    Status,
    UserMemory,
)
from permem.settings import Settings, load_settings

__all__ = [
    "BadInput",
    "CheckFailed",
    "ConfigurationError",
    "Confirmation",
    "GateDecision",
    "IllegalTransition",
    "Kind",
    "Message",
    "NotFound",
    "Origin",
    "PermemError",
    "Role",
    "Sensitivity",
    "Settings",
    "SourceRef",
    "Status",
    "UserMemory",
    "load_settings",
]
