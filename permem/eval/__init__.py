"""The lifecycle evaluation: memory variants on the same queries, personalization lift and
wrong-personalization rate by cause and stratum (`metrics`), the runs over scenario folders and
the dev evaluation sets (`lifecycle`), and the release gate (`gate`, `gate.toml`)."""
