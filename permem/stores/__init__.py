"""The stores permem writes to: PostgreSQL (system of record) and the derived indexes."""
