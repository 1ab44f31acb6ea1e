"""Backups with crypto-shredding: one encrypted file per tenant, one block per subject.

A backup is `<directory>/<tenant>/<backup id>.pmbk` (odd names encoded, see
`permem.export.safe_name`), mode 0600, written atomically, in JSON Lines:

    {"format": "permem-backup/1", "backup_id": ..., "tenant": ..., "created_at": ..., ...}
    {"key_id": ..., "nonce": <base64>, "ciphertext": <base64>}      one line per subject
    {"end": true, "blocks": N}

Nothing else is in plaintext: no subject name, no record. A block is the subject's rows of
`memories` (every status but blocked/erased), the `sources` they cite, their `memory_events`
and `gate_decisions`, and the subject's `subject_settings` and `grants`, as zlib-compressed
JSON sealed with AES-256-GCM under the subject's data key (`backup_keys`); the associated data
binds the format, tenant, backup id and key id, so a block cannot be moved to another file.
Blocks are ordered by key id, which says nothing about the subjects.

Erasure never trusts a backup to forget by itself. Whatever the erasure ledger names (its
`erasing` view, `permem.erasure.ledger`: any state but `held`) is left out of a new backup,
left out by a restore, and removed from the existing backups by `purge_subjects`: the
subject's blocks are re-sealed under a new key without the erased rows, and then every older
key of the subject is deleted, which makes the old blocks unreadable wherever a copy of the
file went. A rewritten file is
`<backup id>.r<N>.pmbk`, beside the old one, which goes once its `backups` row names the new
one. `erase_backups` purges what the ledger still finds in a backup, drops backups past
retention (and the keys only they needed) and proves the result by decrypting every block that
still has a key.

The keys live in PostgreSQL, apart from the files: a file alone is unreadable, and a database
lost with its keys takes every backup with it, so `backup_keys` needs protection of its own
(a replica, point-in-time recovery) rather than a copy in the files. Operations on one
tenant's backups are serialized by an advisory lock, so a backup never races a purge.

The package by job: `_format` (the file, sealing and opening blocks), `_keys` (data keys, the
lock, the live backups), `_ledger` (what a block may keep), `_snapshot` (writing a backup),
`_restore` (reading and restoring), `_purge` (re-sealing, retention, the proof), `_results`.
"""

from __future__ import annotations

from permem.backup._format import (
    BLOCK_TABLES,
    CIPHER,
    ENCODING,
    FORMAT,
    SUFFIX,
    BackupContents,
    SubjectBlock,
    associated_data,
    tenant_folder,
)
from permem.backup._purge import (
    backup_residue,
    drop_expired,
    erase_backups,
    erase_tenant_backups,
    prove_backups,
    purge_erased,
    purge_subjects,
)
from permem.backup._restore import read_backup, restore_backup
from permem.backup._results import (
    BackupProof,
    BackupResult,
    DropResult,
    EraseBackupsReport,
    PurgeResult,
    RestoreResult,
    TenantErasure,
)
from permem.backup._snapshot import backup_all, backup_tenant

__all__ = [
    "BLOCK_TABLES",
    "CIPHER",
    "ENCODING",
    "FORMAT",
    "SUFFIX",
    "BackupContents",
    "BackupProof",
    "BackupResult",
    "DropResult",
    "EraseBackupsReport",
    "PurgeResult",
    "RestoreResult",
    "SubjectBlock",
    "TenantErasure",
    "associated_data",
    "backup_all",
    "backup_residue",
    "backup_tenant",
    "drop_expired",
    "erase_backups",
    "erase_tenant_backups",
    "prove_backups",
    "purge_erased",
    "purge_subjects",
    "read_backup",
    "restore_backup",
    "tenant_folder",
]
