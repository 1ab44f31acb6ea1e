"""The dependencies point one way (DESIGN.md): lineage <- permem <- tasks <- flows <-
interfaces. The core never imports a flow, a task, Prefect (its client included), the
command line or the HTTP service and its framework (FastAPI, Starlette, uvicorn); read from
the source's syntax tree, so a lazy import inside a function counts."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent.parent / "permem"
# The HTTP service's framework belongs to interfaces/http: the core is served, not a server.
ABOVE_THE_CORE = (
    "flows", "tasks", "prefect", "prefect_dask", "interfaces", "fastapi", "starlette", "uvicorn",
)  # fmt: skip


def imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """Every absolute module name the tree imports, with its line: import statements, and
    `importlib.import_module` / `__import__` calls given a literal name."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and node.args:
            fn = node.func
            name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", None)
            first = node.args[0]
            if name in ("import_module", "__import__") and isinstance(first, ast.Constant):
                found.append((node.lineno, str(first.value)))
    return found


def upward_imports(source: str) -> list[str]:
    return [
        f"line {line}: {name}"
        for line, name in imported_modules(ast.parse(source))
        if name.split(".")[0] in ABOVE_THE_CORE
    ]


CORE_MODULES = sorted(CORE.rglob("*.py"))


def test_the_walk_sees_the_core() -> None:
    # An empty or wrong folder would make every check below pass vacuously.
    names = {p.relative_to(CORE).as_posix() for p in CORE_MODULES}
    assert {"__init__.py", "nightly.py", "status.py", "erasure/ledger.py"} <= names


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("import prefect", ["line 1: prefect"]),
        ("def f():\n    from flows.forget import forget", ["line 2: flows.forget"]),
        ("from prefect.client import orchestration", ["line 1: prefect.client"]),
        ("import tasks.nightly as t", ["line 1: tasks.nightly"]),
        ("from interfaces.cli import app", ["line 1: interfaces.cli"]),
        ("from fastapi import FastAPI", ["line 1: fastapi"]),
        ("def f():\n    import uvicorn", ["line 2: uvicorn"]),
        ("import importlib\nimportlib.import_module('flows.backup')", ["line 2: flows.backup"]),
        ("from permem import flowsy\nimport prefectlike\nfrom . import tasks", []),
    ],
)  # fmt: skip
def test_the_check_recognises_upward_imports(source: str, found: list[str]) -> None:
    assert upward_imports(source) == found


@pytest.mark.parametrize("path", CORE_MODULES, ids=lambda p: p.relative_to(CORE).as_posix())
def test_the_core_imports_nothing_above_it(path: Path) -> None:
    assert upward_imports(path.read_text(encoding="utf-8")) == []
