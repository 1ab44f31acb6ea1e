"""What people and programs call: the command line. It starts flows, so it sits above `flows`
(DESIGN.md's layering: lineage <- permem <- tasks <- flows <- interfaces <- deployments)."""

__all__: list[str] = []
