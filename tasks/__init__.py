"""Prefect tasks: thin, retryable steps over the permem core, one task per stage per batch."""
