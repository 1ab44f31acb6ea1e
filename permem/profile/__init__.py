"""The synthesized profile: per subject, purpose and scope, the claims recall could use now as
normalised statements in groups (standing instructions, constraints, preferences, facts with
their validity), each citing its claim ids.

A lineage derivative (`memory -> profile`), stored in PostgreSQL (`profiles`, migration 0010)
as one current version: a regeneration that changes the lines deletes the old version and its
edges and stores the next. The controls regenerate it when they change a claim; a pause
deletes it; `read_profile` regenerates it before answering; `forget` erases every version
that cites a forgotten claim (`permem.erasure.connectors.profiles`).
"""

from permem.profile._statement import statement_of
from permem.profile._store import (
    DEFAULT_SYNTHESISER,
    Profile,
    drop_profiles,
    profile_claims,
    read_profile,
    refresh_profiles,
    stored_profiles,
    subjects_under,
)
from permem.profile._synthesis import GROUPS, ProfileLine, RuleSynthesiser, Synthesiser, group_of

__all__ = [
    "DEFAULT_SYNTHESISER",
    "GROUPS",
    "Profile",
    "ProfileLine",
    "RuleSynthesiser",
    "Synthesiser",
    "drop_profiles",
    "group_of",
    "profile_claims",
    "read_profile",
    "refresh_profiles",
    "statement_of",
    "stored_profiles",
    "subjects_under",
]
