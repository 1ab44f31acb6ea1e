"""Prefect flows, one module per flow; entrypoints load as scripts (absolute imports only)."""
